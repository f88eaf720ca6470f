import Foundation
import RealmCoreFormat
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
        get {
            box.lock.lock()
            defer { box.lock.unlock() }
            return box.classes
        }
        set {
            box.lock.lock()
            box.classes = newValue
            box.lock.unlock()
        }
    }
}

/// Opening files for the subcommands, and what the engine does not expose about a file.
enum RealmFiles {
    /// Opens an existing file; never creates one. Reading commands pass `readOnly: true`; an
    /// encrypted file needs `encryptionKey`. A Realm file opened to write is read into memory
    /// and locked (`RealmCoreFiles.openForEditing`; `upgradeFormat` lets a format 20–23 file be
    /// written back as 24); the command's commit writes it (`Transaction.commit`).
    static func open(_ path: String, readOnly: Bool, encryptionKey: Data? = nil, upgradeFormat: Bool = false) throws
        -> Realm
    {
        try requireRegularFile(path)
        if !readOnly && RealmCoreFiles.isRealmFile(path) {
            return try RealmCoreFiles.openForEditing(path, encryptionKey: encryptionKey, upgradeFormat: upgradeFormat).0
        }
        if RealmCoreFiles.isRealmCoreFile(path) {
            if encryptionKey != nil {
                throw RealmError.encryption(
                    path: path, reason: "the Realm file is not encrypted: open it without a key")
            }
            let realm = try RealmCoreFiles.openConverted(path)
            KnownNames.classes = realm.schema.classNames
            return realm
        }
        if RealmCoreFiles.mayBeEncryptedRealmFile(path) {
            let realm = try RealmCoreFiles.openConverted(path, key: try RealmCoreFiles.requireKey(path, encryptionKey))
            KnownNames.classes = realm.schema.classNames
            return realm
        }
        let config = Realm.Configuration(
            fileURL: URL(fileURLWithPath: path), readOnly: readOnly, encryptionKey: encryptionKey,
            createIfMissing: false)
        let realm: Realm
        do {
            realm = try Realm(configuration: config)
        } catch RealmError.io(let p, let operation, let code, let message)
            where !readOnly && (code == EACCES || code == EROFS)
        {
            throw CLIFailure(
                "\(p): cannot \(operation) (\(message)); this command writes to the file, so it needs write permission")
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
            throw CLIFailure(
                "\(path.prefix(40))…: file name too long (at most \(NAME_MAX) bytes a component, \(PATH_MAX) in all)")
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

/// Realm Core files — what Realm apps write — read through a converted in-memory copy
/// (`RealmCoreConversion`): every reading command and the explorer work on it; the file itself
/// is only read, and nothing is created beside it.
enum RealmCoreFiles {
    /// Whether `path` starts with a Realm Core header (`T-DB` at byte 16).
    static func isRealmCoreFile(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: RealmCoreHeaderFacts.headerSize) else { return false }
        return RealmCoreHeaderFacts.hasMnemonic(Array(header))
    }

    /// Whether `path` is a Realm file, plain or (as far as its bytes can tell without a key)
    /// encrypted: the commands that read one convert it, the writing ones refuse it.
    static func isRealmFile(_ path: String) -> Bool { isRealmCoreFile(path) || mayBeEncryptedRealmFile(path) }

    /// Whether `path` may be an encrypted Realm file: neither a realmtui file (plain or
    /// encrypted, sector 0 lost included), an SQLite database nor a plain Realm file, and a whole
    /// number of 4 KiB pages, a table and a page at least. Only its key can tell it from any other such file.
    static func mayBeEncryptedRealmFile(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: RealmCoreHeaderFacts.headerSize),
            let size = try? handle.seekToEnd()
        else { return false }
        let bytes = Array(head)
        if Realm.isRealmtuiFile(atPath: path) || bytes.starts(with: Array("SQLite format 3".utf8)) { return false }
        return !RealmCoreHeaderFacts.hasMnemonic(bytes) && RealmCoreDecryption.mayBeEncrypted(fileSize: Int(size))
    }

    /// The key to decrypt `path` with: `key` for an encrypted Realm file (an error without one),
    /// nil for a plain one.
    static func requireKey(_ path: String, _ key: Data?) throws -> [UInt8]? {
        guard mayBeEncryptedRealmFile(path) else {
            if key != nil {
                throw RealmError.encryption(
                    path: path, reason: "the Realm file is not encrypted: open it without a key")
            }
            return nil
        }
        guard let key else {
            // A first IV table in Realm's layout says "encrypted" (and the explorer asks for the
            // key); other headerless pages may be anything, and the message says both.
            throw RealmError.encryption(
                path: path, reason: looksEncrypted(path) ? RealmError.missingKeyReason : possiblyEncryptedReason)
        }
        return [UInt8](key)
    }

    /// Whether the first 4 KiB of `path` have the layout of an encrypted Realm file's IV table
    /// (`RealmCoreDecryption.looksEncrypted`).
    static func looksEncrypted(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let start = try? handle.read(upToCount: 4096), let size = try? handle.seekToEnd() else { return false }
        return start.withUnsafeBytes { RealmCoreDecryption.looksEncrypted(start: $0, fileSize: Int(size)) }
    }

    /// The reason given for a file that may be an encrypted Realm file, opened without a key.
    static let possiblyEncryptedReason =
        "no realmtui or Realm header: an encrypted Realm file (give its 64-byte key: --key-file PATH or --key HEX) or not a database"

    /// The refusal for a command that would write to a Realm Core file.
    static func refuseWriting(_ path: String) -> CLIFailure {
        CLIFailure(
            "\(path) is a Realm file (written by a Realm app): realmtui reads it but never changes it; "
                + "'realmtui copy \(path) NEW.realm' converts it into a file you can edit")
    }

    /// The file read whole and converted into an in-memory Realm; what the conversion leaves
    /// out is said on standard error.
    /// `quiet` leaves the warnings out (a watcher reading the file again after a commit).
    static func openConverted(_ path: String, key: [UInt8]? = nil, refusingOmissions: Bool = false, quiet: Bool = false)
        throws -> Realm
    {
        let (file, access) = try read(path, key: key)
        var conversion = try RealmCoreConversion(file: file)
        if refusingOmissions, !conversion.omissions.isEmpty {
            throw CLIFailure(
                "\(path) holds what this version of realmtui cannot hold yet, so a copy would lose it: "
                    + conversion.omissions.map(\.description).joined(separator: ", ")
                    + " (--leave-out-unsupported copies the rest)")
        }
        let realm = try Realm(
            configuration: .init(
                inMemoryIdentifier: "realm-core:\(path):\(UUID().uuidString)", schema: conversion.schema))
        // A file of many objects takes a while: say how far the reading is (on a terminal only).
        let progress =
            quiet
            ? nil
            : Progress(
                inputSize: nil, objects: conversion.objectCount,
                doing: "reading " + (path as NSString).lastPathComponent)
        defer { progress?.finish() }
        try realm.write {
            try conversion.copy(into: realm) { done, total in progress?.update(done, total: total, bytesRead: nil) }
        }
        try note(path, file, access, conversion, droppedLinks: conversion.droppedUnresolvedLinks, quiet: quiet)
        return realm
    }

    /// Records what is known of the Realm file just read (`lastOpened`, the class names for
    /// hints) and, unless `quiet`, says on standard error what the reading left out.
    private static func note(
        _ path: String, _ file: RealmCoreFile, _ access: RealmCoreFileAccess,
        _ conversion: RealmCoreConversion, droppedLinks: Int, quiet: Bool
    ) throws {
        let facts = Facts(
            path: path, formatVersion: file.formatVersion, historyType: file.historyType, version: file.version,
            schemaVersion: try file.schemaVersion(), omissions: conversion.omissions.map(\.description),
            droppedLinks: droppedLinks, summary: access.facts.summary, inUseCopyTakenAt: access.inUseCopyTakenAt)
        box.lock.withLock { box.facts = facts }
        KnownNames.classes = conversion.schema.classNames
        if !quiet { warn(facts) }
    }

    /// The schema of a Realm file and each class's object count, without reading any object:
    /// the header, the group and the tables' specs only (`schema` on a file of any size).
    static func describe(_ path: String, key: [UInt8]?) throws -> (schema: Schema, counts: [Int]) {
        let (file, access) = try read(path, key: key)
        let conversion = try RealmCoreConversion(file: file)
        try note(path, file, access, conversion, droppedLinks: 0, quiet: false)
        let counts = try conversion.schema.objectSchemas.map { objectSchema in
            guard let count = conversion.objectCount(of: objectSchema.name) else {
                throw RealmError.noSuchClass(objectSchema.name)
            }
            return count
        }
        return (conversion.schema, counts)
    }

    /// What a command says on standard error about the Realm file it read.
    private static func warn(_ facts: Facts) {
        if let takenAt = facts.inUseCopyTakenAt {
            Console.error(
                "warning: \(facts.path) is in use by a Realm app: read from a copy taken at \(Facts.clock(takenAt))")
        }
        if let summary = facts.omissionSummary {
            Console.error(
                "warning: \(facts.path): a Realm file (format \(facts.formatVersion)); not shown, this version cannot hold them yet: "
                    + summary + " ('realmtui schema' lists them)")
        }
        if facts.droppedLinks > 0 {
            Console.error(
                "warning: \(facts.path): \(facts.droppedLinks) links to deleted objects read as no link, as Realm apps show them"
            )
        }
    }

    /// `export` of a Realm file as JSON, streamed: each class read one cluster leaf at a time
    /// and written one object at a time, never the whole file in memory (a link's target class
    /// is read once more for its keys and primary keys). The same text as an export of the
    /// converted file: `{"Class": [objects…], …}`, or one class's array with `className`.
    static func exportJSON(_ path: String, key: [UInt8]?, className: String?) throws {
        let (file, access) = try read(path, key: key)
        let conversion = try RealmCoreConversion(file: file)
        try note(path, file, access, conversion, droppedLinks: 0, quiet: false)
        let resolveLink = conversion.exportLinkResolver()
        // Embedded objects are written inside their parents, never as classes of their own.
        let exported = conversion.schema.objectSchemas.filter { !$0.isEmbedded }
        func writeClass(_ objectSchema: ObjectSchema, finalNewline: Bool) throws {
            var first = true
            try conversion.forEachObject(of: objectSchema.name) { _, values in
                var writer = JSONWriter()
                writer.writeRaw(first ? "[\n" : ",\n")
                writer.write(try JSONExport.object(values, schema: objectSchema, resolveLink: resolveLink))
                Console.write(writer.output)
                first = false
                return !Console.outputClosed
            }
            Console.write((first ? "[]" : "\n]") + (finalNewline ? "\n" : ""))
        }
        if let className {
            guard let objectSchema = conversion.schema[className] else { throw RealmError.noSuchClass(className) }
            if objectSchema.isEmbedded {
                try EmbeddedClasses.requireTopLevel(className, in: conversion.schema, for: .export)
            }
            try writeClass(objectSchema, finalNewline: true)
            return
        }
        try ExportCommand.writeDocument(exported) { try writeClass($0, finalNewline: false) }
    }

    /// The file opened read-only (mapped in place, or a consistent copy when a Realm app has it
    /// open: `RealmCoreFileAccess`) and its schema read.
    private static func read(_ path: String, key: [UInt8]? = nil) throws -> (RealmCoreFile, RealmCoreFileAccess) {
        let access =
            try key.map { try RealmCoreFileAccess.open(path: path, key: $0) } ?? RealmCoreFileAccess.open(path: path)
        if let reason = access.facts.unsupportedReason { throw RealmError.unsupportedFormat("\(path): \(reason)") }
        return (try RealmCoreFile(image: access.image, name: path), access)
    }

    /// `check` of a Realm file: every object of every class (embedded ones, Mixed, sets and
    /// dictionaries included) read through the reader, whose every step checks the file's
    /// structure (refs in bounds, node headers, sizes, counts), then every embedded object's
    /// parent (exactly one, and a top-level object above it, as the conversion requires); the
    /// first inconsistency is the error, naming the class and offset.
    static func check(_ path: String, key: [UInt8]? = nil) throws {
        let (file, _) = try read(path, key: key)
        var counts: [(String, Int)] = []
        for table in file.tables {
            guard let name = table.className else { continue }
            var read = 0
            try table.forEachObject { _ in
                read += 1
                return true
            }
            counts.append((name, read))
        }
        let embedded = try RealmCoreConversion(file: file).checkEmbeddedObjects()
        let objects = counts.reduce(0) { $0 + $1.1 }
        Console.line(
            "ok: \(path): a Realm file (format \(file.formatVersion)), version \(file.version), \(objectCount(objects)) in \(counts.count) class\(counts.count == 1 ? "" : "es"), every one read"
                + (embedded > 0 ? "; \(embedded) embedded object\(embedded == 1 ? "" : "s"), each with one parent" : "")
        )
        for (name, count) in counts.sorted(by: { $0.0 < $1.0 }) { Console.line("  \(name): \(count)") }
    }

    /// What a command says about the Realm file it opened (`schema` prints them).
    struct Facts {
        var path: String
        var formatVersion: Int
        /// Realm Core's history type (3 and 4: a synced Realm).
        var historyType: Int
        var version: Int64
        var schemaVersion: Int64?
        var omissions: [String]
        var droppedLinks: Int
        /// "Realm file, format 24, written by Realm Core 14 or later".
        var summary: String
        /// When a Realm app had the file open: when the copy read was taken.
        var inUseCopyTakenAt: Date?

        /// What the write commands do with the file (`RealmCoreEditPolicy.accessNote`); one that
        /// holds what realmtui cannot hold yet is not written back either (it would be lost).
        var accessNote: String {
            if !omissions.isEmpty { return "read-only: it holds what realmtui cannot hold yet (listed below)" }
            return RealmCoreEditPolicy.accessNote(
                path: path, format: formatVersion, historyType: historyType,
                inUseByRealmApp: inUseCopyTakenAt != nil)
        }

        /// HH:MM:SS of `date` in local time.
        static func clock(_ date: Date) -> String {
            let formatter = DateFormatter()
            formatter.dateFormat = "HH:mm:ss"
            return formatter.string(from: date)
        }

        /// The omissions counted by kind ("2 typed links, 1 asymmetric class, …"), or nil. The
        /// kinds are what the conversion still leaves out (`RealmCoreConversion`'s reasons):
        /// embedded objects, sets, dictionaries and Mixed are converted.
        var omissionSummary: String? {
            guard !omissions.isEmpty else { return nil }
            let kinds: [(String, String, String)] = [
                ("typed link", "typed link", "typed links"),
                ("links to", "link to a left-out class", "links to left-out classes"),
                ("asymmetric", "asymmetric class", "asymmetric classes"),
                ("a set of embedded objects", "set of embedded objects", "sets of embedded objects"),
            ]
            var parts: [String] = []
            var counted = 0
            for (marker, one, many) in kinds {
                let n = omissions.filter { $0.contains(marker) }.count
                if n > 0 { parts.append("\(n) \(n == 1 ? one : many)") }
                counted += n
            }
            if counted < omissions.count { parts.append("\(omissions.count - counted) others") }
            return parts.joined(separator: ", ")
        }
    }

    private final class Box: @unchecked Sendable {
        let lock = NSLock()
        var facts: Facts?
    }
    private static let box = Box()

    /// The facts of the Realm file this process opened last, if any.
    static var lastOpened: Facts? { box.lock.withLock { box.facts } }
}
