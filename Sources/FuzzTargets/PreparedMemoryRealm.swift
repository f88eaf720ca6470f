import Foundation
import RealmEngine

/// A prepared in-memory database that fuzz inputs start from, kept while no input changes it.
///
/// One instance (`keeper`) holds the in-memory file open at its prepared version; `open()` gives
/// each input a new `Realm` instance on that file, as opening a new database would, minus creating
/// the schema and filling it. `release()` (after the input, once its instances are gone) drops the
/// file when a commit moved it past the prepared version, so the next input gets a new one. A
/// write that was cancelled or abandoned leaves the version — and, as the engine truncates back,
/// the file's size — as they were, so the file stays.
final class PreparedMemoryRealm {
    private let prefix: String
    private let schema: Schema
    private let prepare: (Realm) throws -> Void
    private var counter = 0
    private var current: (identifier: String, keeper: Realm, version: UInt64)?

    /// Files named `prefix-PID-N` of `schema`, each filled by `prepare` when made.
    init(prefix: String, schema: Schema, prepare: @escaping (Realm) throws -> Void) {
        self.prefix = prefix
        self.schema = schema
        self.prepare = prepare
    }

    /// A new instance on the prepared file (made first if there is none).
    func open() throws -> Realm {
        let prepared = try current ?? makeFile()
        current = prepared
        return try Realm(configuration: .init(inMemoryIdentifier: prepared.identifier, schema: schema))
    }

    /// A new in-memory file, prepared, with the instance that keeps it open.
    private func makeFile() throws -> (identifier: String, keeper: Realm, version: UInt64) {
        counter += 1
        let identifier = "\(prefix)-\(getpid())-\(counter)"
        let keeper = try Realm(configuration: .init(inMemoryIdentifier: identifier, schema: schema))
        try prepare(keeper)
        return (identifier, keeper, keeper.version)
    }

    /// Drops the file if a commit changed it since it was prepared; returns whether it did.
    @discardableResult
    func release() -> Bool {
        guard let current else { return false }
        _ = current.keeper.refresh()
        guard current.keeper.version != current.version else { return false }
        self.current = nil
        return true
    }
}
