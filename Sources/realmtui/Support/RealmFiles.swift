import Foundation
import RealmEngine

/// Names the last opened file knows, for "did you mean" hints in error messages.
enum KnownNames {
    private final class Box: @unchecked Sendable {
        let lock = NSLock()
        var classes: [String] = []
    }
    private static let box = Box()

    /// The class names of the file a command opened last.
    static var classes: [String] {
        get { box.lock.lock(); defer { box.lock.unlock() }; return box.classes }
        set { box.lock.lock(); box.classes = newValue; box.lock.unlock() }
    }
}

/// Opening files for the subcommands, and what the engine does not expose about a file.
enum RealmFiles {
    /// Opens an existing file; never creates one. Reading commands pass `readOnly: true`; an
    /// encrypted file needs `encryptionKey`.
    static func open(_ path: String, readOnly: Bool, encryptionKey: Data? = nil) throws -> Realm {
        try requireRegularFile(path)
        let config = Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: readOnly, encryptionKey: encryptionKey,
                                         createIfMissing: false)
        let realm: Realm
        do {
            realm = try Realm(configuration: config)
        } catch RealmError.io(let p, let operation, let code, let message) where !readOnly && (code == EACCES || code == EROFS) {
            throw CLIFailure("\(p): cannot \(operation) (\(message)); this command writes to the file, so it needs write permission")
        }
        if let warning = realm.recoveryWarning { Console.error("warning: " + warning) }
        KnownNames.classes = realm.schema.classNames
        return realm
    }

    /// Throws the error a reading command gives for a path that is missing or not a plain file,
    /// before the engine is asked to open it.
    static func requireRegularFile(_ path: String) throws {
        var isDirectory: ObjCBool = false
        try requireSaneName(path)
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw RealmError.fileNotFound(path: path)
        }
        if isDirectory.boolValue {
            throw CLIFailure("\(path) is a directory, not a realmtui database file")
        }
        try requireNotSpecial(path)
    }

    /// Throws for a path naming a FIFO, a device or a socket (following links): never opened,
    /// since a FIFO would wait for a writer and a device reads as an empty or endless file.
    static func requireNotSpecial(_ path: String) throws {
        if let kind = SpecialFile.kind(atPath: path), kind != "a directory" {
            throw CLIFailure("\(path) is \(kind), not a regular file: a realmtui database is a regular file")
        }
    }

    /// Throws for a path the file system would refuse with ENAMETOOLONG, with a short message.
    static func requireSaneName(_ path: String) throws {
        let tooLongComponent = path.split(separator: "/").contains { $0.utf8.count > Int(NAME_MAX) }
        if path.utf8.count >= Int(PATH_MAX) || tooLongComponent {
            throw CLIFailure("\(path.prefix(40))…: file name too long (at most \(NAME_MAX) bytes a component, \(PATH_MAX) in all)")
        }
    }

    /// Whether `path` names nothing, or an empty file (which `create` and `demo` may fill).
    static func isAbsentOrEmpty(_ path: String) throws -> Bool {
        try requireSaneName(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return true }
        if isDirectory.boolValue { throw CLIFailure("\(path) is a directory") }
        try requireNotSpecial(path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 1
        return size == 0
    }

    /// Size of the file in bytes.
    static func fileSize(_ path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.uint64Value ?? 0
    }

    /// Resolves links for display (see `Realm.exportLinkResolver()`).
    static func linkResolver(_ realm: Realm) -> LinkResolver {
        realm.exportLinkResolver()
    }

    /// Resolves links for writing `rows` as JSON or CSV: a link to their class by position
    /// counts positions among them, as `import --class` reads them back.
    static func linkResolver(_ realm: Realm, writing rows: ValueRows) -> LinkResolver {
        realm.exportLinkResolver(output: rows.keys, of: rows.className)
    }

    /// The stored values of the objects of `results`, read one object at a time. Reading stops at
    /// the first error, which `error` then holds.
    final class ValueRows: Sequence, IteratorProtocol {
        private let objects: Results
        /// The objects' keys, in order.
        let keys: [ObjectKey]
        /// Their class.
        var className: String { objects.objectSchema.name }
        private var index = 0
        private(set) var error: Error?

        init(_ results: Results) throws {
            objects = results
            keys = try results.keys()
        }

        func next() -> [Value]? {
            guard error == nil, index < keys.count else { return nil }
            defer { index += 1 }
            do {
                return try objects.object(at: index).values()
            } catch {
                self.error = error
                return nil
            }
        }

        /// Throws the error that stopped reading, if any.
        func rethrow() throws { if let error { throw error } }
    }
}
