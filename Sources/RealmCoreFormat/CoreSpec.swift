import Foundation
import RealmEngine

/// A table's spec (Realm Core's `Spec`): column types, names, attributes, enum keys and column
/// keys, read with the table top's search-index refs and opposite-table/column arrays into
/// `CoreColumn`s. Backlink columns are kept apart (they are hidden in Realm's API).
struct CoreSpec {
    var columns: [CoreColumn] = []
    var backlinks: [CoreColumn] = []

    static func read(_ b: CoreBytes, tableTop top: CoreNode, tableName: String) throws -> CoreSpec {
        guard let specRef = try b.ref(top, 0, "\(tableName) spec") else {
            throw b.corrupt(top.ref, "\(tableName): table without a spec")
        }
        let spec = try b.node(specRef, "\(tableName) spec")
        guard spec.hasRefs, spec.count >= 3 else { throw b.corrupt(specRef, "\(tableName): malformed spec") }
        guard let typesRef = try b.ref(spec, 0, "\(tableName) spec types"),
            let namesRef = try b.ref(spec, 1, "\(tableName) spec names"),
            let attrsRef = try b.ref(spec, 2, "\(tableName) spec attributes")
        else {
            throw b.corrupt(specRef, "\(tableName): spec without types, names or attributes")
        }
        let types = try b.intArray(typesRef, "\(tableName) spec types")
        let attrs = try b.intArray(attrsRef, "\(tableName) spec attributes")
        let decoder = CoreLeafDecoder(bytes: b, context: tableName, format: 24)
        let names = try decoder.stringBytes(namesRef, nullable: false)
        guard spec.count > 5, let keysRef = try b.ref(spec, 5, "\(tableName) column keys") else {
            throw b.corrupt(specRef, "\(tableName): spec without column keys")
        }
        let colKeys = try b.intArray(keysRef, "\(tableName) column keys")
        let total = types.count
        guard attrs.count == total, colKeys.count == total, names.count >= columnsWithNames(types) else {
            throw b.corrupt(
                specRef,
                "\(tableName): spec arrays disagree in length (types \(total), attributes \(attrs.count), keys \(colKeys.count), names \(names.count))"
            )
        }
        var enumKeys: CoreNode?
        if let r = try b.ref(spec, 4, "\(tableName) enum keys") { enumKeys = try b.node(r, "\(tableName) enum keys") }
        let indexRefs = try optionalArray(b, top, 4, "\(tableName) search indexes")
        let oppositeTables = try optionalArray(b, top, 7, "\(tableName) link targets")
        let oppositeColumns = try optionalArray(b, top, 8, "\(tableName) link origin columns")

        var result = CoreSpec()
        for i in 0..<total {
            // The low 16 bits are the column type; a dictionary keeps its key type above them.
            let rawType = Int(types.int(i) & 0xFFFF)
            guard let type = CoreColumnType(rawValue: rawType) else {
                throw b.corrupt(
                    typesRef, "\(tableName): column \(i) has unknown type \(rawType) (a format older than 20?)")
            }
            let key = migratedKey(colKeys.int(i))
            let keyAttrs = (key >> 22) & 0xFF
            let specAttrs = attrs.int(i)
            let name = i < names.count ? String(decoding: names[i] ?? Data(), as: UTF8.self) : ""
            var collection: CoreCollectionKind? =
                keyAttrs & 32 != 0 ? .list : keyAttrs & 128 != 0 ? .set : keyAttrs & 64 != 0 ? .dictionary : nil
            if type == .linkList { collection = .list }
            // The table top's per-column arrays are indexed by the key's leaf index, not the
            // spec position (they differ once a column has been removed).
            let leaf = Int(key & 0xFFFF)
            var index: CoreIndexKind?
            if let indexRefs, leaf < indexRefs.count, indexRefs.int(leaf) != 0, indexRefs.int(leaf) & 1 == 0 {
                index = specAttrs & 256 != 0 ? .fulltext : .general
            }
            var target: Int64?
            if let oppositeTables, leaf < oppositeTables.count, type == .link || type == .linkList || type == .backlink
            {
                target = oppositeTables.int(leaf)
            }
            var originColumn: Int64?
            if let oppositeColumns, leaf < oppositeColumns.count, type == .backlink {
                originColumn = migratedKey(oppositeColumns.int(leaf))
            }
            var enumRef: Int?
            if let enumKeys, type == .string, i < enumKeys.count, enumKeys.hasRefs {
                enumRef = try b.ref(enumKeys, i, "\(tableName).\(name) enum keys")
            }
            guard (key & 0xFFFF) < 0xFFFF else {
                throw b.corrupt(keysRef, "\(tableName): column key \(key) has no leaf index")
            }
            let column = CoreColumn(
                name: name, type: type, nullable: keyAttrs & 16 != 0, collection: collection,
                index: index, key: key, linkTargetKey: target, linkTarget: nil,
                originColumnKey: originColumn, specIndex: i, enumKeysRef: enumRef,
                isBacklink: type == .backlink)
            if type == .backlink { result.backlinks.append(column) } else { result.columns.append(column) }
        }
        return result
    }

    /// Files older than 24 may still carry link-list keys of type 13; Realm Core rewrites them to
    /// link keys (type 12, list attribute) when it opens them (`Table::migrate_col_keys`), and
    /// that is the key its API and dump show.
    static func migratedKey(_ key: Int64) -> Int64 {
        guard (key >> 16) & 0x3F == 13 else { return key }
        return (key & ~(Int64(0x3F) << 16)) | (Int64(12) << 16)
    }

    /// Names are stored for every column (backlink columns included) in current files.
    private static func columnsWithNames(_ types: CoreNode) -> Int {
        var n = 0
        for i in 0..<types.count where types.int(i) != 14 { n += 1 }
        return n
    }

    private static func optionalArray(_ b: CoreBytes, _ top: CoreNode, _ slot: Int, _ what: String) throws -> CoreNode?
    {
        guard slot < top.count, let r = try b.ref(top, slot, what) else { return nil }
        return try b.node(r, what)
    }
}
