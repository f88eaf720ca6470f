import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
import Testing

/// One test's own namespace on the server: a fresh schema, reached through a URL whose
/// `search_path` names it, so tests running side by side never see each other's tables.
struct ServerNamespace {
    let name: String
    /// The URL a file records: host, user and database come from the `PG*` variables.
    let url: String

    init() throws {
        name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        url = "postgresql://?options=-csearch_path%3D\(name)"
        let admin = try PostgresConnection(url: "")
        try admin.execute("CREATE SCHEMA \(name)")
    }

    /// A connection into the namespace (for looking at the server's tables).
    func connect() throws -> PostgresConnection { try PostgresConnection(url: url) }
}

/// Files and their content, for the sync tests.
enum SyncFixture {
    /// Person (int key, every scalar type the codec maps, a list, a link to another Person)
    /// and Tag (string key).
    static let schema = Schema([
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "name", type: .string),
                Property(name: "age", type: .int, isOptional: true),
                Property(name: "score", type: .double, defaultValue: .double(0)),
                Property(name: "born", type: .date, isOptional: true),
                Property(name: "photo", type: .data, isOptional: true),
                Property(name: "uuid", type: .uuid, isOptional: true),
                Property(name: "tags", type: .string, isList: true),
                Property(name: "best", type: .object, isOptional: true, objectClassName: "Person"),
                Property(name: "labels", type: .object, isList: true, objectClassName: "Tag"),
            ]),
        ObjectSchema(
            name: "Tag",
            properties: [
                Property(name: "name", type: .string, isPrimaryKey: true),
                Property(name: "weight", type: .float, defaultValue: .float(0)),
            ]),
    ])

    /// A new file at `path` with `schema`, set up for sync with `url`.
    /// Two files, `a` and `b`, set up for sync with one server namespace (kept alive with them):
    /// the start of most sync tests.
    struct SyncedFiles {
        let server: ServerNamespace
        let dir: TempDir
        let a: String
        let b: String
    }

    static func twoSyncedFiles() throws -> SyncedFiles {
        let server = try ServerNamespace()
        let dir = TempDir()
        let files = SyncedFiles(server: server, dir: dir, a: dir.path("a.realm"), b: dir.path("b.realm"))
        try makeSynced(files.a, url: server.url)
        try makeSynced(files.b, url: server.url)
        return files
    }

    static func makeSynced(_ path: String, url: String, schema: Schema = schema) throws {
        _ = try Realm(configuration: .file(path, schema: schema))
        try SyncAgent.initialize(path: path, url: url)
    }

    /// Every object of every user class, links as their target's primary key, sorted by class
    /// and key: equal for two files exactly when their exports are (keys differ per file).
    static func content(_ path: String) throws -> [String] {
        let realm = try Realm(configuration: .file(path))
        var out: [String] = []
        for c in realm.schema.objectSchemas {
            for object in try realm.objects(c.name) {
                let members = try c.persistedProperties.map { p in
                    JSONMember(p.name, try SyncCodec.encode(try object.value(forKey: p.name), p, in: realm))
                }
                out.append(c.name + " " + SyncCodec.text(.object(members)))
            }
        }
        return out.sorted()
    }

    /// Runs `body` in a write transaction of the file at `path`.
    static func write(_ path: String, _ body: (Realm) throws -> Void) throws {
        let realm = try Realm(configuration: .file(path))
        try realm.write { try body(realm) }
    }

    /// The number of rows of a server table.
    static func count(_ db: PostgresConnection, _ table: String) throws -> Int {
        let rows = try db.execute("SELECT count(*) FROM \(SyncServerSchema.identifier(table))").rows
        return rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? -1
    }
}
