import CSQLite3
import Foundation

/// The C API's side of the set and dictionary tasks: the items in SQLite's two nearest forms (a
/// JSON column, join tables), each in a file of its own with the people's file's settings.
extension CAPISide {
    static var collectionForms: [CollectionForm] { [.json, .join] }

    /// The side on the items file of `form` (same class, so the same tuning).
    private func itemFile(_ form: CollectionForm) throws -> CAPISide {
        guard form != .native else { throw BenchError("\(Self.name) has no native form") }
        if let file = itemFiles[form] { return file }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        let file = Self(path: directory.appendingPathComponent("items-\(form.rawValue).sqlite").path)
        itemFiles[form] = file
        return file
    }

    func insertCollections(_ data: CollectionData, form: CollectionForm) throws {
        let file = try itemFile(form)
        try file.transaction {
            for sql in CollectionTask.schemaSQL(form) { try file.exec(sql) }
        }
        switch form {
        case .json:
            let item = try file.statement("INSERT INTO item (id, tags, attrs) VALUES (?, ?, ?)")
            try file.transaction {
                for i in 0..<data.count {
                    sqlite3_reset(item)
                    sqlite3_bind_int64(item, 1, Int64(i))
                    sqlite3_bind_text(item, 2, data.tagsJSON(i), -1, CAPISide.transient)
                    sqlite3_bind_text(item, 3, data.attributesJSON(i), -1, CAPISide.transient)
                    try file.run(item)
                }
            }
        case .join:
            let item = try file.statement("INSERT INTO item (id) VALUES (?)")
            let tag = try file.statement("INSERT INTO item_tag (item, tag) VALUES (?, ?)")
            let attribute = try file.statement("INSERT INTO item_attr (item, key, value) VALUES (?, ?, ?)")
            try file.transaction {
                for i in 0..<data.count {
                    let id = Int64(i)
                    sqlite3_reset(item)
                    sqlite3_bind_int64(item, 1, id)
                    try file.run(item)
                    for word in data.tagStrings(i) {
                        sqlite3_reset(tag)
                        sqlite3_bind_int64(tag, 1, id)
                        sqlite3_bind_text(tag, 2, word, -1, CAPISide.transient)
                        try file.run(tag)
                    }
                    for (key, value) in data.attributePairs(i) {
                        sqlite3_reset(attribute)
                        sqlite3_bind_int64(attribute, 1, id)
                        sqlite3_bind_text(attribute, 2, key, -1, CAPISide.transient)
                        sqlite3_bind_int64(attribute, 3, value)
                        try file.run(attribute)
                    }
                }
            }
        case .native:
            throw BenchError("\(Self.name) has no native form")
        }
    }

    func prepareCollections(form: CollectionForm) throws {
        try close()
        _ = try itemFile(form).opened()
    }

    func countItems(form: CollectionForm) throws -> Int { Int(try itemFile(form).int("SELECT count(*) FROM item")) }

    func countCollection(_ task: CollectionTask, form: CollectionForm) throws -> Int {
        Int(try itemFile(form).int(task.sql(form)))
    }
}
