import Foundation

/// The root of one version: where the schema, the change log and every table live.
///
/// Payload: `schemaRef u64 | changeLogRef u64 | tableCount u32 | pad u32`, then per table
/// `rootRef u64 | count u64 | nextKey i64 | indexCount u32 | pad u32` and per index
/// `column u32 | pad u32 | ref u64 | count u64`.
struct TopNode {
    var schemaRef: UInt64
    var changeLogRef: UInt64
    var tables: [TableState]

    func payload() -> [UInt8] {
        // Sized first and written in place: this runs once per commit, and appending field by
        // field regrew the buffer several times.
        let size = 24 + tables.reduce(0) { $0 + 32 + 24 * $1.indexes.count }
        return [UInt8](uninitializedCapacity: size) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            var w = ByteWriter(UnsafeMutableRawPointer(base), capacity: size)
            w.u64(schemaRef)
            w.u64(changeLogRef)
            w.u32(UInt32(tables.count))
            w.u32(0)
            for t in tables {
                w.u64(t.root?.ref ?? 0)
                w.u64(UInt64(t.root?.count ?? 0))
                w.u64(UInt64(bitPattern: t.nextKey))
                w.u32(UInt32(t.indexes.count))
                w.u32(0)
                for column in t.indexes.keys.sorted() {
                    let tree = t.indexes[column] ?? nil
                    w.u32(UInt32(column))
                    w.u32(0)
                    w.u64(tree?.ref ?? 0)
                    w.u64(UInt64(tree?.count ?? 0))
                }
            }
            initialized = w.position
        }
    }

    static func decode(_ p: UnsafeRawBufferPointer, path: String, ref: UInt64, layout: SchemaLayout?) throws -> TopNode
    {
        var reader = ByteCursor(p, path: path, ref: ref)
        let schemaRef = try reader.u64()
        let changeLogRef = try reader.u64()
        let n = Int(try reader.u32())
        _ = try reader.u32()
        guard n <= Limits.maxClasses else { throw reader.corrupt("too many tables (\(n))") }
        var tables: [TableState] = []
        for ti in 0..<n {
            let rootRef = try reader.u64()
            let count = try reader.u64()
            let nextKey = try reader.i64()
            let indexCount = Int(try reader.u32())
            _ = try reader.u32()
            guard indexCount <= Limits.maxProperties, count <= UInt64(Int.max) else {
                throw reader.corrupt("bad table entry \(ti)")
            }
            var t = TableState()
            t.root = rootRef == 0 ? nil : TreeChild(firstKey: .min, count: Int(count), ref: rootRef, node: nil)
            t.nextKey = nextKey
            for _ in 0..<indexCount {
                let column = Int(try reader.u32())
                _ = try reader.u32()
                let iref = try reader.u64()
                let icount = try reader.u64()
                guard icount <= UInt64(Int.max) else { throw reader.corrupt("bad index entry") }
                t.indexes[column] =
                    iref == 0 ? TreeChild?.none : TreeChild(firstKey: .min, count: Int(icount), ref: iref, node: nil)
            }
            tables.append(t)
        }
        return TopNode(schemaRef: schemaRef, changeLogRef: changeLogRef, tables: tables)
    }
}

/// Reads little-endian values from a node payload, throwing a corruption error past its end.
struct ByteCursor {
    let p: UnsafeRawBufferPointer
    let path: String
    let ref: UInt64
    var offset = 0

    init(_ p: UnsafeRawBufferPointer, path: String, ref: UInt64) {
        self.p = p
        self.path = path
        self.ref = ref
    }

    func corrupt(_ reason: String) -> RealmError {
        RealmError.corruptFile(path: path, offset: ref, reason: reason)
    }

    mutating func u64() throws -> UInt64 {
        guard offset + 8 <= p.count else { throw corrupt("node ends early") }
        defer { offset += 8 }
        return UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    mutating func i64() throws -> Int64 { Int64(bitPattern: try u64()) }
    mutating func u32() throws -> UInt32 {
        guard offset + 4 <= p.count else { throw corrupt("node ends early") }
        defer { offset += 4 }
        return UInt32(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    mutating func bytes(_ n: Int) throws -> UnsafeRawBufferPointer {
        guard n >= 0, offset + n <= p.count else { throw corrupt("node ends early") }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: p[offset..<offset + n])
    }
}

/// The schema is stored as JSON in a `.schema` node: readable by any tool, versioned with the data.
enum SchemaNode {
    static func payload(_ schema: Schema, schemaVersion: UInt64) throws -> [UInt8] {
        let stored = StoredSchema(schemaVersion: schemaVersion, schema: schema)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(stored))
    }

    /// A property type is stored by name (`"decimal128"`), so a program that lacks a type a file
    /// uses cannot misread its columns: the schema does not decode, and the file is refused.
    /// That refusal names the unknown type as a newer program's (not as damage): a new type needs
    /// no format version of its own.
    static func decode(_ p: UnsafeRawBufferPointer, path: String, ref: UInt64) throws -> StoredSchema {
        do {
            return try JSONDecoder().decode(StoredSchema.self, from: Data(p))
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.last?.stringValue == "type" {
            throw RealmError.unsupportedFormat(
                "\(path): a property of the stored schema has a type this program does not know (\(context.debugDescription)); "
                    + "the file was written by a newer program: open it with that one")
        } catch {
            throw RealmError.corruptFile(path: path, offset: ref, reason: "the stored schema does not decode: \(error)")
        }
    }
}

struct StoredSchema: Codable {
    var schemaVersion: UInt64
    var schema: Schema
}
