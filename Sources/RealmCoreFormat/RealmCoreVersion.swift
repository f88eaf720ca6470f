import Foundation
import RealmEngine

/// A Realm Core file read in place as one `ReadableVersion`: the explorer, queries, `Results`
/// and export read it directly from the mapped file, with no conversion first.
///
/// Opening reads what `RealmCoreFile` reads (the header, the group's top, every table's top and
/// spec) and plans the schema as `RealmCoreConversion` does: nothing per object. A class's count
/// is its cluster tree root's size (O(1)); keys, rows and values are read from the cluster
/// leaves when asked, each leaf's keys checked as the reader checks them, and the last leaves
/// read are kept decoded so that a scan in key order decodes each leaf column once. Every value
/// is the one the conversion writes (`RealmCoreConversion.value`): links to deleted objects
/// read as no link, Mixed typed links name their class, sets and dictionaries as the engine
/// holds them. Backlinks come from the file's own backlink columns; primary keys are found by
/// reading the primary-key column once, leaf by leaf, into a table kept for the next lookups
/// (the file's search indexes are not read); no column offers an index lookup.
///
/// What the conversion checks only by reading every object (each embedded object has exactly one
/// parent) is not checked on opening: `RealmCoreConversion.checkEmbeddedObjects` does it.
package final class RealmCoreVersion: ReadableVersion, @unchecked Sendable {
    package let schema: Schema
    /// The file's snapshot number.
    package let version: UInt64
    /// The file read.
    package let file: RealmCoreFile
    /// What the reading leaves out (as `RealmCoreConversion.omissions`).
    package let omissions: [RealmCoreConversion.Omission]
    /// How the file was opened (mapped in place, or a copy of a file in use), when it was opened
    /// by path.
    package let access: RealmCoreFileAccess?
    private let classes: [CoreClassReader]
    /// Per target class, per (origin class, origin column): the backlink column position in the
    /// target's table.
    private let backlinkColumns: [[BacklinkSource: Int]]

    private struct BacklinkSource: Hashable {
        var originClass: Int
        var originColumn: Int
    }

    /// Reads `file` in place (its schema only; objects when asked).
    package init(file: RealmCoreFile, access: RealmCoreFileAccess? = nil) throws {
        let conversion = try RealmCoreConversion(file: file)
        self.file = file
        self.access = access
        schema = conversion.schema
        omissions = conversion.omissions
        version = UInt64(clamping: file.version)
        var readers: [CoreClassReader] = []
        for objectSchema in conversion.schema.objectSchemas {
            guard let plan = conversion.plans.first(where: { $0.name == objectSchema.name }) else {
                throw RealmError.internalError("internal error: no table planned for class \(objectSchema.name)")
            }
            var columns: [(position: Int, property: Property)] = []
            for property in objectSchema.persistedProperties {
                guard let column = plan.columns.first(where: { $0.property.name == property.name }) else {
                    throw RealmError.internalError(
                        "internal error: no column planned for \(objectSchema.name).\(property.name)")
                }
                columns.append(column)
            }
            readers.append(
                CoreClassReader(
                    table: plan.table, name: objectSchema.name, columns: columns,
                    tableClasses: conversion.tableClasses))
        }
        classes = readers
        var backlinks = Array(repeating: [BacklinkSource: Int](), count: readers.count)
        for (originClass, origin) in readers.enumerated() {
            for (originColumn, column) in origin.columns.enumerated() where column.property.isLink {
                guard let targetName = column.property.objectClassName,
                    let target = readers.firstIndex(where: { $0.name == targetName })
                else { continue }
                let linkColumn = origin.table.columns[column.position]
                let position = readers[target].table.backlinkColumns.firstIndex {
                    $0.linkTargetKey == origin.table.key && $0.originColumnKey == linkColumn.key
                }
                if let position {
                    backlinks[target][BacklinkSource(originClass: originClass, originColumn: originColumn)] = position
                }
            }
        }
        backlinkColumns = backlinks
    }

    /// Opens the Realm Core file at `path` read-only, in place (mapped; a consistent copy when
    /// a Realm app has it open; decrypted into memory with `key`), without converting it:
    /// what the explorer, `query` and `export` read a Realm file through.
    package convenience init(path: String, key: [UInt8]? = nil) throws {
        let access =
            try key.map { try RealmCoreFileAccess.open(path: path, key: $0) } ?? RealmCoreFileAccess.open(path: path)
        if let reason = access.facts.unsupportedReason { throw RealmError.unsupportedFormat("\(path): \(reason)") }
        try self.init(file: RealmCoreFile(image: access.image, name: path), access: access)
    }

    private func reader(_ classIndex: Int) throws -> CoreClassReader {
        guard classes.indices.contains(classIndex) else { throw RealmError.noSuchClass("#\(classIndex)") }
        return classes[classIndex]
    }

    // MARK: ObjectStore and ReadableVersion

    package func count(classIndex: Int) throws -> Int { try reader(classIndex).table.objectCount }

    package func keys(classIndex: Int) throws -> [ObjectKey] { try reader(classIndex).allKeys() }

    package func key(classIndex: Int, at position: Int) throws -> ObjectKey {
        let reader = try reader(classIndex)
        let count = reader.table.objectCount
        guard position >= 0, position < count else { throw RealmError.indexOutOfRange(index: position, count: count) }
        guard let key = try reader.keys(from: position, limit: 1).first else {
            throw reader.shortTree()
        }
        return key
    }

    package func keys(classIndex: Int, in positions: Range<Int>) throws -> [ObjectKey] {
        let reader = try reader(classIndex)
        let lower = max(0, positions.lowerBound)
        let upper = min(positions.upperBound, reader.table.objectCount)
        guard lower < upper else { return [] }
        let keys = try reader.keys(from: lower, limit: upper - lower)
        guard keys.count == upper - lower else { throw reader.shortTree() }
        return keys
    }

    package func keyBound(classIndex: Int) throws -> Int64 {
        let reader = try reader(classIndex)
        let count = reader.table.objectCount
        guard count > 0 else { return 0 }
        guard let last = try reader.keys(from: count - 1, limit: 1).first else { throw reader.shortTree() }
        return last.rawValue == .max ? .max : last.rawValue + 1
    }

    package func contains(classIndex: Int, key: ObjectKey) throws -> Bool {
        try reader(classIndex).contains(key.rawValue)
    }

    package func value(classIndex: Int, key: ObjectKey, column: Int) throws -> Value {
        let reader = try reader(classIndex)
        guard reader.columns.indices.contains(column) else {
            throw RealmError.indexOutOfRange(index: column, count: reader.columns.count)
        }
        guard let value = try reader.values(key.rawValue, columns: column..<(column + 1))?.first else {
            throw RealmError.invalidatedObject
        }
        return value
    }

    package func row(classIndex: Int, key: ObjectKey) throws -> [Value]? {
        let reader = try reader(classIndex)
        return try reader.values(key.rawValue, columns: reader.columns.indices)
    }

    package func object(classIndex: Int, primaryKey: Value) throws -> ObjectKey? {
        try reader(classIndex).object(primaryKey: primaryKey)
    }

    package func column(classIndex: Int, named name: String) -> Int? {
        guard classes.indices.contains(classIndex) else { return nil }
        return classes[classIndex].columns.firstIndex { $0.property.name == name }
    }

    package func persistedColumnCount(classIndex: Int) -> Int {
        classes.indices.contains(classIndex) ? classes[classIndex].columns.count : 0
    }

    package func backlinks(classIndex: Int, key: ObjectKey, originClass: Int, originColumn: Int) throws
        -> [ObjectKey]
    {
        let target = try reader(classIndex)
        let origin = try reader(originClass)
        guard origin.columns.indices.contains(originColumn) else {
            throw RealmError.indexOutOfRange(index: originColumn, count: origin.columns.count)
        }
        if let position = backlinkColumns[classIndex][
            BacklinkSource(originClass: originClass, originColumn: originColumn)]
        {
            guard let keys = try target.backlinks(key.rawValue, column: position) else {
                throw RealmError.invalidatedObject
            }
            return keys.map(ObjectKey.init)
        }
        // No backlink column records this link column: the origin objects' links are read.
        guard try target.contains(key.rawValue) else { throw RealmError.invalidatedObject }
        var out: [ObjectKey] = []
        for originKey in try origin.allKeys() {
            switch try value(classIndex: originClass, key: originKey, column: originColumn) {
            case .link(let k) where k == key: out.append(originKey)
            case .list(let items): for case .link(let k) in items where k == key { out.append(originKey) }
            case .map(let entries): for case .link(let k) in entries.values where k == key { out.append(originKey) }
            default: break
            }
        }
        return out
    }

    package func listsBacklinks(classIndex: Int, originClass: Int, originColumn: Int) -> Bool {
        backlinkColumns.indices.contains(classIndex)
            && backlinkColumns[classIndex][BacklinkSource(originClass: originClass, originColumn: originColumn)] != nil
    }

    /// No index lookups: the file's search indexes are not read (a query scans).
    package func indexLookup(classIndex: Int, column: Int, value: Value) throws -> [ObjectKey]? {
        _ = try reader(classIndex)
        return nil
    }
}
