/// Writing objects under keys the caller chooses, for conversions from another file format
/// (`RealmCoreFormat` converts Realm Core files): the keys and the links between objects stay
/// as they were, and the hidden backlink columns are computed from the links written — never
/// taken from the other file, whose backlinks might disagree with its links.
///
/// Two phases inside one write transaction on a Realm whose schema is the converted one:
/// 1. `noteLink` for every link and list-of-links element (so each object's backlinks are
///    known when it is written);
/// 2. `insert` for every object with its persisted values (links as `.link(key)` in the target
///    class's keys), then `finish`.
package final class KeyedCopy {
    private let realm: Realm
    private let transaction: WriteTransaction
    /// Per class, per object key, per backlink column: the origin objects' keys.
    private var backlinks: [Int: [ObjectKey: [Int: [Value]]]] = [:]
    private var nextKeys: [Int: Int64] = [:]
    /// How many inserted keys were looked up to refuse a duplicate (tests: a copy in ascending
    /// key order needs none).
    package private(set) var duplicateKeyLookups = 0

    /// Starts a copy into `realm`, which must be in a write transaction.
    package init(into realm: Realm) throws {
        guard let transaction = realm.transaction else { throw RealmError.notInWriteTransaction }
        self.realm = realm
        self.transaction = transaction
    }

    /// The class index of `className`, or `noSuchClass`.
    private func classIndex(_ className: String) throws -> Int {
        guard let index = transaction.layout.classIndex(className) else { throw RealmError.noSuchClass(className) }
        return index
    }

    /// Records that `originKey`'s link property `property` of `originClass` names `target`.
    package func noteLink(from originClass: String, property: String, originKey: ObjectKey, to target: ObjectKey) throws
    {
        let origin = try classIndex(originClass)
        guard let column = transaction.layout.tables[origin].columnIndex[property],
            let (targetClass, backlinkColumn) = transaction.layout.linkTargets[
                .init(classIndex: origin, column: column)]
        else {
            throw RealmError.invalidOperation("\(originClass).\(property) is not a link property")
        }
        backlinks[targetClass, default: [:]][target, default: [:]][backlinkColumn, default: []].append(.link(originKey))
    }

    /// Writes the object `key` of `className` with `values`, one per persisted property.
    package func insert(_ className: String, key: ObjectKey, values: [Value]) throws {
        let index = try classIndex(className)
        let table = transaction.layout.tables[index]
        guard values.count == table.persistedCount else {
            throw RealmError.internalError(
                "internal error: \(values.count) values for the \(table.persistedCount) properties of \(className)")
        }
        guard key.rawValue >= 0, key.rawValue < Int64.max else {
            throw RealmError.invalidInput("object key \(key.rawValue) of \(className) is out of range")
        }
        // Every object of the class has a key below the table's next key: a key at or above it
        // (each key of a copy in ascending order) cannot be taken, and is not looked up.
        if key.rawValue < transaction.state.tables[index].nextKey {
            duplicateKeyLookups += 1
            if try transaction.state.contains(classIndex: index, key: key) {
                throw RealmError.invalidInput("\(className) has two objects with the key \(key.rawValue)")
            }
        }
        var row = values
        if table.columns.count > table.persistedCount {
            // Only a class with backlink columns is linked to, and has backlinks noted.
            let noted = backlinks[index]?.removeValue(forKey: key) ?? [:]
            for column in table.persistedCount..<table.columns.count { row.append(.list(noted[column] ?? [])) }
        }
        try transaction.copyRow(index, key: key, row: row)
        nextKeys[index] = max(nextKeys[index] ?? 0, key.rawValue + 1)
    }

    /// Ends the copy: every noted link must have named an object that was written.
    package func finish() throws {
        for (index, objects) in backlinks {
            if let (key, _) = objects.first(where: { !$0.value.isEmpty }) {
                let className = transaction.layout.schema.objectSchemas[index].name
                throw RealmError.invalidInput("a link names \(className) object \(key.rawValue), which does not exist")
            }
        }
        for (index, next) in nextKeys {
            transaction.state.tables[index].nextKey = max(transaction.state.tables[index].nextKey, next)
        }
    }
}
