import Foundation
import GRDB

/// GRDB's side of the set and dictionary tasks: the items in SQLite's two nearest forms (a JSON
/// column, join tables), each in a file of its own with the people's file's settings.
extension SQLiteSide {
    static var collectionForms: [CollectionForm] { [.json, .join] }

    private func itemConnection(_ form: CollectionForm) throws -> SQLiteConnection {
        guard let c = itemConnections[form] else { throw BenchError("\(Self.name) has no \(form) form") }
        return c
    }

    func insertCollections(_ data: CollectionData, form: CollectionForm) throws {
        let queue = try itemConnection(form).opened()
        try queue.write { db in
            for sql in CollectionTask.schemaSQL(form) { try db.execute(sql: sql) }
        }
        try queue.write { db in
            switch form {
            case .json:
                let item = try db.cachedStatement(sql: "INSERT INTO item (id, tags, attrs) VALUES (?, ?, ?)")
                for i in 0..<data.count {
                    try item.execute(arguments: [Int64(i), data.tagsJSON(i), data.attributesJSON(i)])
                }
            case .join:
                let item = try db.cachedStatement(sql: "INSERT INTO item (id) VALUES (?)")
                let tag = try db.cachedStatement(sql: "INSERT INTO item_tag (item, tag) VALUES (?, ?)")
                let attribute = try db.cachedStatement(sql: "INSERT INTO item_attr (item, key, value) VALUES (?, ?, ?)")
                for i in 0..<data.count {
                    let id = Int64(i)
                    try item.execute(arguments: [id])
                    for word in data.tagStrings(i) { try tag.execute(arguments: [id, word]) }
                    for (key, value) in data.attributePairs(i) { try attribute.execute(arguments: [id, key, value]) }
                }
            case .native:
                throw BenchError("\(Self.name) has no native form")
            }
        }
    }

    func prepareCollections(form: CollectionForm) throws {
        try close()
        _ = try itemConnection(form).opened()
    }

    func countItems(form: CollectionForm) throws -> Int {
        try itemConnection(form).opened().read { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM item")) ?? 0
        }
    }

    func countCollection(_ task: CollectionTask, form: CollectionForm) throws -> Int {
        try itemConnection(form).opened().read { db in
            guard let n = try Int.fetchOne(db.cachedStatement(sql: task.sql(form))) else {
                throw BenchError("\(task.sql(form)): no row")
            }
            return n
        }
    }
}
