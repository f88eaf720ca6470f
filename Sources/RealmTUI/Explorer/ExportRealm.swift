import Foundation
import RealmCoreFormat
import RealmEngine

extension ExplorerState {
    /// `:export realm PATH [--key HEX | --key-file PATH]` (`arguments`: what follows `realm`):
    /// the effect, or nil with the usage or the key's problem as the message. The key is Realm's
    /// 64-byte encryption key, as `realmtui copy --new-key` takes it: 128 hex digits, or a file
    /// holding those or the 64 raw bytes.
    mutating func exportRealmCommand(_ arguments: [String]) -> [ExplorerEffect] {
        let usage = "usage: :export realm PATH [--key HEX | --key-file PATH]"
        guard let path = arguments.first else {
            message = Message(text: usage, isError: true)
            return []
        }
        if arguments.count == 1 { return [.exportRealm(path: path)] }
        guard arguments.count == 3, ["--key", "--key-file"].contains(arguments[1]) else {
            message = Message(text: usage, isError: true)
            return []
        }
        do {
            let key =
                arguments[1] == "--key"
                ? try Self.realmKey(hex: arguments[2], what: "--key")
                : try Self.realmKey(file: (arguments[2] as NSString).expandingTildeInPath)
            return [.exportRealm(path: path, key: key)]
        } catch {
            message = Message(text: "export failed: \(ExplorerText.describe(error))", isError: true)
            return []
        }
    }

    /// 128 hex digits (spaces allowed) as the 64 bytes of a Realm encryption key.
    static func realmKey(hex text: String, what: String) throws -> Data {
        let digits = Array(text.filter { !$0.isWhitespace }.utf8)
        var bytes: [UInt8] = []
        var at = 0
        while at + 1 < digits.count, let byte = UInt8(String(decoding: digits[at...at + 1], as: UTF8.self), radix: 16) {
            bytes.append(byte)
            at += 2
        }
        guard at == digits.count, bytes.count == 64 else {
            throw RealmError.invalidInput(
                "\(what) takes a 64-byte Realm encryption key as 128 hex digits"
                    + (at == digits.count
                        ? ", got \(digits.count)"
                        : ", and '\(String(decoding: digits[at...].prefix(8), as: UTF8.self))' is not hex"))
        }
        return Data(bytes)
    }

    /// The key in the file at `path`: its 64 bytes, or 128 hex digits.
    static func realmKey(file path: String) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw RealmError.fileNotFound(path: path) }
        defer { try? handle.close() }
        // A key is 64 bytes or 128 hex digits (and a newline): more is not a key file.
        let contents = try handle.read(upToCount: 4096) ?? Data()
        if contents.count == 64 { return contents }
        return try realmKey(hex: String(decoding: contents, as: UTF8.self), what: "--key-file \(path)")
    }

    /// `:export realm PATH`: writes the open Realm's version as a Realm file (Realm Core format
    /// 24) through the Realm Core writer — every class and object, not the current result —
    /// encrypted with `key` (Realm's encryption: a Realm app opens it with that
    /// `encryptionKey`) when given. The writer makes a new file under a temporary name beside
    /// PATH, which replaces PATH only once complete; a file already at PATH is replaced only
    /// with `overwrite` (the explorer asks first). A schema the writer cannot write yet is a
    /// message naming it.
    mutating func exportRealmFile(path: String, key: Data? = nil, overwrite: Bool = false) {
        let expanded = (path as NSString).expandingTildeInPath
        if !overwrite && FileManager.default.fileExists(atPath: expanded) {
            mode = .edit(
                .confirming(
                    Confirmation(
                        question: "\(path) exists: replace it? (y/n)",
                        effects: [.exportRealm(path: path, key: key, overwrite: true)])))
            return
        }
        let temporary = expanded + ".realmtui-export-\(UUID().uuidString)"
        do {
            let tables = try RealmCoreWriter.tables(from: realm)
            try RealmCoreWriter.write(
                tables: tables, schemaVersion: realm.schemaVersion, toFile: temporary, encryptionKey: key)
            guard rename(temporary, expanded) == 0 else {
                throw RealmError.io(
                    path: expanded, operation: "rename", errno: errno, message: String(cString: strerror(errno)))
            }
            let objects = tables.reduce(0) { $0 + $1.objects.count }
            message = Message(
                text: "exported \(ValueFormatter.grouped(objects)) objects in \(tables.count) classes to \(path) "
                    + "(a Realm file, format \(RealmCoreWriter.formatVersion)\(key == nil ? "" : ", encrypted with the key given"))",
                isError: false)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            message = Message(text: "export failed: \(ExplorerText.describe(error))", isError: true)
        }
    }
}
