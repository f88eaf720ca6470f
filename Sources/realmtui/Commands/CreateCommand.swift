import ArgumentParser
import Foundation
import RealmEngine

/// `realmtui create FILE --schema SCHEMA.json`: a new, empty database with a realm-js schema.
struct CreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a new database file from a realm-js JSON schema.",
        discussion: """
            SCHEMA.json is realm-js's schema form (what 'schema --json' prints), e.g.
              [{"name": "Dog", "primaryKey": "id",
                "properties": {"id": "int", "name": "string", "owner": "Person?"}}]

            Property types: bool int int8 int16 int32 int64 (= int) float double
                            string date data objectId uuid decimal128 (= decimal)
                            mixed (any value, a link to any class, nested lists and
                            dictionaries; always optional: "mixed", "mixed[]", "mixed{}")
            Forms:
              "int"        required            "int?"      optional (nil allowed)
              "string[]"   a list              "int?[]"    a list of optional values
              "Person"     a link (to-one links are always optional; "Person?" too)
              "Person[]"   a list of links
              "string<>"   a set (unique values)   "Person<>"  a set of links
              "int{}"      a dictionary (string keys; no '.' in a key, none starting with '$')
              "int?{}"     a dictionary of optional values   "Person{}"  a dictionary of links
              {"type": "string", "optional": true, "indexed": true, "default": "Rex"}
              {"type": "list", "objectType": "string"}   (also "set", "dictionary")
              {"type": "object", "objectType": "Person"}
              {"type": "linkingObjects", "objectType": "Person", "property": "dogs"}
                           computed backlinks (not stored)
            "indexed": true gives a bool, int, string, date, objectId, uuid or mixed
            property a search index (a mixed one finds 1, 1.0 and decimal 1 alike).
            A class may name a "primaryKey": an int, string, objectId or uuid
            property, always indexed.
            A class with "embedded": true holds objects that live inside their parent
            ("Address", "Address[]" or "Address{}" in it; never a set), deleted with
            it; it has no primary key: {"name": "Address", "embedded": true, ...}
            Refuses to touch a FILE that exists and is not empty. With --key or --key-file the
            new file is encrypted (AES-256 and HMAC-SHA-256 per page).
            """
    )

    @Argument(help: "The database file to create.", completion: .file())
    var file: String

    @Option(
        name: .long, help: "The realm-js JSON schema file ('-' for standard input).",
        completion: .file(extensions: ["json"]))
    var schema: String

    @OptionGroup var encryption: EncryptionOptions

    func run() throws {
        let text = try Input.read(schema, what: "schema")
        let parsed = try Schema(realmJSJSON: text)
        let (realm, _) = try Creation.createNew(file, schema: parsed, encryptionKey: try encryption.encryptionKey())
        Console.line("created \(file): \(classCount(realm.schema.objectSchemas.count))")
    }
}

/// Shared by `create` and `demo`: make a new file, removing it again if creating it fails.
enum Creation {
    /// Creates `path` with `schema`. A path that exists and is not empty is refused. When creation
    /// fails, a file this call made is removed (an empty file that was there stays, emptied state
    /// unchanged). With `encryptionKey` the new file is encrypted.
    static func createNew(_ path: String, schema: Schema, encryptionKey: Data? = nil) throws -> (Realm, existed: Bool) {
        try schema.validate()
        guard try RealmFiles.isAbsentOrEmpty(path) else {
            throw CLIFailure("\(path) already exists and is not empty; remove it or choose another name")
        }
        let existed = FileManager.default.fileExists(atPath: path)
        do {
            let config = Realm.Configuration(
                fileURL: URL(fileURLWithPath: path), schema: schema, encryptionKey: encryptionKey,
                createIfMissing: true)
            return (try Realm(configuration: config), existed)
        } catch {
            if !existed { removeFile(path) }
            throw error
        }
    }

    /// Removes a file this process created, and its auxiliary files.
    static func removeFile(_ path: String) {
        try? Realm.deleteFiles(for: path)
    }
}

/// Reading input files and standard input.
enum Input {
    /// The bytes of `path`, or of standard input for `-`. `what` names the input in errors.
    static func read(_ path: String, what: String) throws -> Data {
        if path == "-" {
            // `readToEnd()`, not `readDataToEndOfFile()`, which traps on a read error
            // (`realmtui import db.realm - < /tmp`: EISDIR).
            do {
                return try FileHandle.standardInput.readToEnd() ?? Data()
            } catch {
                throw CLIFailure("standard input: cannot read the \(what) input: \(reason(error))")
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIFailure("\(path): no such \(what) file")
        }
        if isDirectory.boolValue { throw CLIFailure("\(path) is a directory, not a \(what) file") }
        // Read to the end of the stream, not to the size stat reports: pipes, FIFOs and
        // <(command) (/dev/fd/N) report 0.
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CLIFailure("\(path): cannot read the \(what) file (\(String(cString: strerror(errno))))")
        }
        defer { try? handle.close() }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw CLIFailure("\(path): cannot read the \(what) file: \(reason(error))")
        }
    }

    /// `path` (or standard input for `-`) opened for reading in chunks: a descriptor and a
    /// reader for `JSONElementStream` that turns a failed read into a clear error. The caller
    /// closes the descriptor (not standard input's).
    ///
    /// A read waits for a pipe or FIFO in steps of 100 ms, asking `shouldStop` between them, so
    /// that Ctrl-C ends an import waiting for more input (it throws `DataImport.Interrupted`).
    static func open(_ path: String, what: String, shouldStop: @escaping () -> Bool) throws
        -> (descriptor: Int32, size: Int64?, read: (UnsafeMutableRawBufferPointer) throws -> Int)
    {
        let name = path == "-" ? "standard input" : path
        let descriptor: Int32
        if path == "-" {
            descriptor = STDIN_FILENO
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIFailure("\(path): no such \(what) file")
            }
            if isDirectory.boolValue { throw CLIFailure("\(path) is a directory, not a \(what) file") }
            descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CLIFailure("\(path): cannot read the \(what) file (\(String(cString: strerror(errno))))")
            }
        }
        var info = stat()
        // Pipes, FIFOs and <(command) (/dev/fd/N) report no size: progress then counts objects.
        let size: Int64? =
            fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int64(info.st_size) : nil
        let read = { (buffer: UnsafeMutableRawBufferPointer) throws -> Int in
            while true {
                if shouldStop() { throw DataImport.Interrupted() }
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, 100)
                if polled == 0 || (polled < 0 && errno == EINTR) { continue }
                let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
                if count >= 0 { return count }
                if errno == EINTR { continue }
                throw CLIFailure("\(name): cannot read the \(what) input: \(String(cString: strerror(errno)))")
            }
        }
        return (descriptor, size, read)
    }

    /// The system's words for a failed read ("Is a directory"): Foundation wraps the errno in
    /// an `NSError` whose own description is empty on Linux.
    static func reason(_ error: Error) -> String {
        var nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError { nsError = underlying }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return error.localizedDescription
    }
}
