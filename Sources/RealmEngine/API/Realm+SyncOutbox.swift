import Foundation

/// The sync outbox (issue 27): in a file that has sync configured, every local commit queues what
/// it changed in the same write transaction as the change itself, so a crash, a restart, a week
/// offline or a reader pinning an old version loses nothing. The queue is an internal class of
/// the file (`SyncClasses.outbox`), as is the sync state (`SyncClasses.state`: server, client id,
/// download cursor); both exist only once `realmtui sync init` added them, and `Realm.schema`
/// (what the explorer, export and the typed API see) leaves them out.
///
/// One outbox object per changed object and commit: its class, its primary key (in the sync
/// codec's JSON form, so a deleted object's key is known after it is gone), the names of the
/// changed properties (every property for a new object), whether the commit created or deleted
/// it, and the commit's version. The values themselves are read when the entry is uploaded: a
/// later commit of the same object queues its own entry, so the newest value travels either way.
public enum SyncClasses {
    /// The prefix of every internal class; such classes are never shown or synced.
    public static let prefix = "__realmtui_"
    /// The outbox: one object per changed object and commit.
    public static let outbox = "__realmtui_sync_outbox"
    /// The sync state: one object (server, client id, download cursor).
    public static let state = "__realmtui_sync_state"

    /// Whether `name` is an internal class of the engine.
    public static func isInternal(_ name: String) -> Bool { name.hasPrefix(prefix) }

    /// The outbox class's schema.
    public static let outboxSchema = ObjectSchema(
        name: outbox,
        properties: [
            Property(name: "version", type: .int, isIndexed: true),
            Property(name: "className", type: .string),
            Property(name: "primaryKey", type: .string),
            Property(name: "properties", type: .string, isList: true),
            Property(name: "created", type: .bool),
            Property(name: "deleted", type: .bool),
        ])

    /// The sync state class's schema (one object). `lastSync` is when the agent last uploaded
    /// or downloaded something, written in the same commit; files set up before it existed
    /// have no such property (and show no time). `uploaded` holds the feed numbers of this
    /// file's uploads the cursor has not passed yet, as pairs of first and last, so the download
    /// need not apply them again; files set up before it existed apply them.
    public static let stateSchema = ObjectSchema(
        name: state,
        properties: [
            Property(name: "server", type: .string),
            Property(name: "client", type: .string),
            Property(name: "cursor", type: .int),
            Property(name: "lastSync", type: .date, isOptional: true),
            Property(name: "uploaded", type: .int, isList: true),
        ])
}

/// What the explorer's status line shows of a synced file, read from the file alone (the
/// explorer needs no server for it).
public struct SyncIndicator: Equatable, Sendable {
    /// Local changes waiting for upload (outbox entries).
    public var pending: Int
    /// When changes last went up or came down; nil when never (or a file set up before the
    /// time was recorded).
    public var lastSync: Timestamp?

    /// The indicator of `realm` at the version it reads, nil when the file has no sync set up.
    /// - Throws: what reading the sync classes throws (a damaged file).
    public static func read(_ realm: Realm) throws -> SyncIndicator? {
        guard realm.described.schema[SyncClasses.state] != nil,
            let state = try realm.objects(SyncClasses.state).checkedFirst()
        else { return nil }
        var lastSync: Timestamp?
        if state.objectSchema["lastSync"] != nil, case .date(let time) = try state.value(forKey: "lastSync") {
            lastSync = time
        }
        return SyncIndicator(pending: try realm.objects(SyncClasses.outbox).checkedCount(), lastSync: lastSync)
    }
}

/// Encodes a primary key for the outbox and the server: the sync codec's JSON text of the value.
/// The engine needs only this one direction (RealmSync decodes it with the property's type).
public enum SyncKeyText {
    /// The JSON text of a primary key value (int, string, objectId, uuid, or null).
    public static func encode(_ value: Value) throws -> String {
        switch value {
        case .null: return "null"
        case .int(let v): return String(v)
        case .string(let s):
            var writer = JSONWriter()
            writer.write(.string(s))
            return writer.flush()
        case .objectId(let id): return "\"\(id.description)\""
        case .uuid(let id): return "\"\(id.uuidString.lowercased())\""
        default: throw RealmError.notSyncable("a primary key of type \(value.kindName) cannot be synced")
        }
    }
}

extension Realm {
    /// Queues the open transaction's changes in the outbox when the file has sync configured
    /// (its base version has the outbox class) and `queuesToOutbox` is set. Called by
    /// `commitWrite` right before the commit, so the entries commit with the change or not at all.
    func queueToOutbox(_ t: WriteTransaction) throws {
        guard queuesToOutbox, let outboxIndex = t.base.layout.classIndex(SyncClasses.outbox) else { return }
        if t.newSchema != nil || t.changes.everything {
            throw RealmError.notSyncable(
                "\(shared.path) is synced: changing its schema is not supported yet (the server's tables would no longer match)"
            )
        }
        let schema = t.state.schema
        var entries: [[String: Value]] = []
        let version = Int64(bitPattern: t.writer.newVersion)
        for (c, changes) in t.changes.classes.sorted(by: { $0.key < $1.key }) where c != outboxIndex {
            let objectSchema = schema.objectSchemas[c]
            guard !SyncClasses.isInternal(objectSchema.name) else { continue }
            let properties = objectSchema.persistedProperties
            guard let pkColumn = properties.firstIndex(where: \.isPrimaryKey) else {
                throw RealmError.notSyncable("\(objectSchema.name) has no primary key, so it cannot be synced")
            }
            func entry(_ key: Value, _ names: [String], created: Bool, deleted: Bool) throws -> [String: Value] {
                [
                    "version": .int(version), "className": .string(objectSchema.name),
                    "primaryKey": .string(try SyncKeyText.encode(key)),
                    "properties": .list(names.map(Value.string)), "created": .bool(created), "deleted": .bool(deleted),
                ]
            }
            let allNames = properties.map(\.name)
            for run in changes.insertedRuns {
                for k in run.first..<(run.first + run.count) {
                    let pk = try t.state.value(classIndex: c, key: ObjectKey(k), column: pkColumn)
                    entries.append(try entry(pk, allNames, created: true, deleted: false))
                }
            }
            for (k, mask) in changes.modified.sorted(by: { $0.key < $1.key }) {
                let names = properties.indices.filter { ChangeRecorder.mask(mask, includes: $0) }.map {
                    properties[$0].name
                }
                let pk = try t.state.value(classIndex: c, key: ObjectKey(k), column: pkColumn)
                entries.append(try entry(pk, names, created: false, deleted: false))
            }
            for k in changes.deleted {
                // Gone from the transaction's state: its key is read from the version it started from.
                let pk = try t.base.value(classIndex: c, key: ObjectKey(k), column: pkColumn)
                entries.append(try entry(pk, [], created: false, deleted: true))
            }
        }
        for e in entries { _ = try create(SyncClasses.outbox, e) }
    }
}
