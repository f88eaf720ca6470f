import Foundation
import RealmEngine

/// Opening files for the subcommands, and what the engine does not expose about a file.
enum RealmFiles {
    /// Opens an existing file; never creates one. Reading commands pass `readOnly: true`.
    static func open(_ path: String, readOnly: Bool) throws -> Realm {
        try requireRegularFile(path)
        let config = Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: readOnly, createIfMissing: false)
        let realm = try cleaningUpLockFile(for: config.path) { try Realm(configuration: config) }
        if !readOnly, let formats = formatVersions(path, version: realm.version), formats.write > writableFormat {
            throw CLIFailure("\(realm.path): written by a newer format (write format \(formats.write); this program writes up to \(writableFormat)); it can be read but not changed; upgrade realmtui")
        }
        return realm
    }

    /// The newest write format the engine writes (`FileHeader.writeFormat`, which is internal).
    /// The engine does not yet refuse to write a file whose header names a newer write format
    /// (a newer write format should open read-only), so the writing commands check it here.
    static let writableFormat: UInt16 = 1

    /// Runs `body`, which opens the file at `path`. The engine creates the lock file before it
    /// reads the header, so a foreign, newer or corrupt file would be left with a `.lock` beside
    /// it; no realmtui process can be using the lock file of a file that does not open, so when
    /// `body` fails that way, a lock file that did not exist before is removed.
    static func cleaningUpLockFile<T>(for path: String, _ body: () throws -> T) throws -> T {
        let lockPath = path + ".lock"
        let lockExisted = FileManager.default.fileExists(atPath: lockPath)
        do {
            return try body()
        } catch let error as RealmError {
            switch error {
            case .notARealmFile, .newerFormat, .corruptFile:
                if !lockExisted { try? FileManager.default.removeItem(atPath: lockPath) }
            default:
                break
            }
            throw error
        }
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
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 1
        return size == 0
    }

    /// Size of the file in bytes.
    static func fileSize(_ path: String) -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.uint64Value ?? 0
    }

    /// The read and write format versions of the header slot holding `version`.
    ///
    /// The engine does not expose them (`FileHeader` is internal), so this reads the two 64-byte
    /// slots at offsets 64 and 128 itself: version u64 at +0, readFormat u16 at +32, writeFormat
    /// u16 at +34, little-endian. The slot whose version the engine opened has already passed the
    /// engine's checksum test.
    static func formatVersions(_ path: String, version: UInt64) -> (read: UInt16, write: UInt16)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 192), data.count == 192 else { return nil }
        let bytes = [UInt8](data)
        func u64(_ o: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[o + $1]) << (8 * UInt64($1)) } }
        func u16(_ o: Int) -> UInt16 { UInt16(bytes[o]) | UInt16(bytes[o + 1]) << 8 }
        for base in [64, 128] where u64(base) == version {
            return (u16(base + 32), u16(base + 34))
        }
        return nil
    }

    /// Resolves links for export: the target's primary key, or nil (exported as
    /// `{"class", "key"}`) when the target class has none.
    static func linkResolver(_ realm: Realm) -> LinkResolver {
        let schema = realm.schema
        return { targetClass, key in
            guard let pk = schema[targetClass]?.primaryKeyProperty,
                  let object = try? realm.object(ofType: targetClass, key: key) else { return nil }
            return try? object.value(forKey: pk.name)
        }
    }

    /// The stored values of the objects of `results`, read one object at a time. Reading stops at
    /// the first error, which `error` then holds.
    final class ValueRows: Sequence, IteratorProtocol {
        private let objects: Results
        private let keys: [ObjectKey]
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
