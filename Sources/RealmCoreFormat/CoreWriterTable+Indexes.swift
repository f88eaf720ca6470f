import Foundation
import RealmEngine

/// A table's search indexes and primary key as `CoreTableWriter` writes them: per indexed
/// column (and the primary-key column) a `StringIndex` in the table top's index array (slot 4,
/// by leaf index), the primary key's column key tagged in slot 11, and the indexed attribute
/// (1) in the spec for a column indexed on its own (Object Store gives the primary-key column
/// its index through `set_primary_key_column`, without the attribute).
extension CoreTableWriter {
    /// Column types Realm Core's `StringIndex` takes (`type_supported`).
    static let indexableTypes: Set<CoreColumnType> = [.int, .bool, .string, .timestamp, .objectId, .uuid, .mixed]
    /// Column types Realm Core takes for a primary key.
    static let primaryKeyTypes: Set<CoreColumnType> = [.int, .string, .objectId, .uuid]

    /// The primary-key column's position, checked: a column of a primary-key type, not a list.
    func primaryKeyColumn() throws -> Int? {
        guard let name = table.primaryKey else { return nil }
        guard let i = table.columns.firstIndex(where: { $0.name == name }) else {
            throw RealmError.invalidInput("\(table.name): the primary key '\(name)' is not a column")
        }
        let c = table.columns[i]
        guard Self.primaryKeyTypes.contains(c.type), !c.isList else {
            throw RealmError.invalidInput(
                "\(table.name).\(name): a \(c.isList ? "list" : c.type.name) column cannot be a primary key")
        }
        return i
    }

    /// Whether column `i` gets a search index (indexed or the primary key).
    func hasIndex(_ i: Int, primaryKey: Int?) -> Bool { table.columns[i].isIndexed || i == primaryKey }

    /// The spec attributes of column `i`: the key's (nullable, list) and indexed (1) for a
    /// column indexed on its own.
    func specAttributes(_ i: Int, primaryKey: Int?) -> Int64 {
        table.columns[i].attributes | (table.columns[i].isIndexed && i != primaryKey ? 1 : 0)
    }

    /// The table top's slot 11: the primary-key column's key, tagged, or null.
    func primaryKeySlot(_ primaryKey: Int?) -> CoreSlot { primaryKey.map { .tagged(columnKey($0)) } ?? .null }

    /// Writes every search index over `objects` (in key order) and returns the table top's
    /// index array entries, one per column and backlink column (null where none). Primary
    /// keys must be unique.
    func writeSearchIndexes(_ objects: [RealmCoreWriterTable.Object], primaryKey: Int?, _ w: inout CoreNodeWriter)
        throws -> [CoreSlot]
    {
        var slots = [CoreSlot](repeating: .null, count: table.columns.count + backlinks.count)
        for (i, c) in table.columns.enumerated() where hasIndex(i, primaryKey: primaryKey) {
            let what = "\(table.name.hasPrefix("class_") ? String(table.name.dropFirst(6)) : table.name).\(c.name)"
            guard Self.indexableTypes.contains(c.type), !c.isList else {
                throw RealmError.invalidInput(
                    "\(what): a \(c.isList ? "list" : c.type.name) column cannot have a search index")
            }
            var builder = CoreStringIndexBuilder()
            var seen = Set<[UInt8]?>()
            let isMixed = c.type == .mixed
            if isMixed { try CoreStringIndexBuilder.checkMixedColumn(objects.map { $0.values[i] }, what: what) }
            for o in objects {
                let data =
                    try isMixed
                    ? CoreStringIndexBuilder.mixedIndexData(o.values[i], what: what)
                    : CoreStringIndexBuilder.indexData(o.values[i], what: what)
                if i == primaryKey, !seen.insert(data).inserted {
                    throw RealmError.invalidInput(
                        "\(what): two objects have the primary key \(o.values[i]) (the second is object \(o.key))")
                }
                builder.insert(key: o.key, data: data)
            }
            slots[i] = .ref(try builder.write(&w, what: what))
        }
        return slots
    }
}
