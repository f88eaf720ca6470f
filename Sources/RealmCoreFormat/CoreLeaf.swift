import Foundation
import RealmEngine

/// What a leaf holds: the element type and how Realm Core encodes it.
struct CoreElementType {
    let type: CoreColumnType
    let nullable: Bool
    /// For link columns: the target table's key (links are stored as bare object keys).
    let targetTableKey: Int64
    /// Enum string keys, when the column is an enum string column.
    let enumKeys: [Data?]?
}

/// Decodes whole leaves (a cluster column, or a B+tree leaf of a collection) into values.
/// `context` names the class and column for error messages.
struct CoreLeafDecoder {
    let bytes: CoreBytes
    let context: String
    let format: Int

    /// The values of one leaf of `element` type.
    func values(_ ref: Int, _ element: CoreElementType) throws -> [CoreValue] {
        switch element.type {
        case .int: return try ints(ref, nullable: element.nullable).map { $0.map(CoreValue.int) ?? .null }
        case .bool:
            // `ArrayBoolNull`: 0, 1, or 3 for null (no sentinel element, unlike integers).
            let n = try bytes.intArray(ref, "\(context) bool leaf")
            return (0..<n.count).map { i in
                let v = n.int(i)
                return element.nullable && v == 3 ? .null : .bool(v != 0)
            }
        case .float: return try floats(ref, nullable: element.nullable)
        case .double: return try doubles(ref, nullable: element.nullable)
        case .string: return try strings(ref, nullable: element.nullable, enumKeys: element.enumKeys)
        case .binary: return try binaries(ref, nullable: element.nullable)
        case .timestamp: return try timestamps(ref)
        case .decimal128: return try decimals(ref)
        case .objectId:
            return try fixedBytes(ref, width: 12, nullable: element.nullable).map {
                $0.map(CoreValue.objectId) ?? .null
            }
        case .uuid:
            return try fixedBytes(ref, width: 16, nullable: element.nullable).map { $0.map(CoreValue.uuid) ?? .null }
        case .link, .linkList: return try links(ref, adjusted: true, target: element.targetTableKey)
        case .typedLink: return try typedLinks(ref)
        case .mixed: return try mixed(ref, depth: 0)
        case .backlink: throw bytes.corrupt(ref, "\(context): a backlink column is not a value column")
        }
    }

    /// Integers, with Realm Core's null sentinel (element 0) when nullable (`ArrayIntNull`).
    func ints(_ ref: Int, nullable: Bool) throws -> [Int64?] {
        let n = try bytes.intArray(ref, "\(context) integer leaf")
        if !nullable { return (0..<n.count).map { n.int($0) } }
        guard n.count >= 1 else { throw bytes.corrupt(ref, "\(context): nullable integer leaf without its null value") }
        let null = n.int(0)
        return (1..<n.count).map { i in
            let v = n.int(i)
            return v == null ? nil : v
        }
    }

    /// A node of `width`-byte elements (`BasicArray`), checked to hold `count` of them.
    private func basic(_ ref: Int, width: Int, _ what: String) throws -> CoreNode {
        let n = try bytes.node(ref, "\(context) \(what) leaf")
        guard n.widthType == .multiply, n.count == 0 || n.width == width else {
            throw bytes.corrupt(ref, "\(context): \(what) leaf with element width \(n.width), expected \(width)")
        }
        return n
    }

    func floats(_ ref: Int, nullable: Bool) throws -> [CoreValue] {
        let n = try basic(ref, width: 4, "float")
        return (0..<n.count).map { i in
            let bits = n.u32(at: i * 4)
            if nullable, bits == 0x7FC0_00AA { return .null }
            return .float(Float(bitPattern: bits))
        }
    }

    func doubles(_ ref: Int, nullable: Bool) throws -> [CoreValue] {
        let n = try basic(ref, width: 8, "double")
        return (0..<n.count).map { i in
            let bits = n.u64(at: i * 8)
            if nullable, bits == 0x7FF8_0000_0000_00AA { return .null }
            return .double(Double(bitPattern: bits))
        }
    }

    /// Timestamps: seconds (nullable integers: null seconds is a null timestamp) and nanoseconds.
    func timestamps(_ ref: Int) throws -> [CoreValue] {
        let n = try bytes.node(ref, "\(context) timestamp leaf")
        guard n.hasRefs, n.count >= 2, let s = try bytes.ref(n, 0, "\(context) seconds"),
            let ns = try bytes.ref(n, 1, "\(context) nanoseconds")
        else {
            throw bytes.corrupt(ref, "\(context): malformed timestamp leaf")
        }
        let seconds = try ints(s, nullable: true)
        let nanos = try ints(ns, nullable: false)
        guard seconds.count == nanos.count else {
            throw bytes.corrupt(ref, "\(context): seconds and nanoseconds disagree in count")
        }
        return zip(seconds, nanos).map { s, ns in
            guard let s else { return .null }
            return .timestamp(seconds: s, nanoseconds: Int32(truncatingIfNeeded: ns ?? 0))
        }
    }

    /// Fixed-size bytes (ObjectId 12, UUID 16): blocks of a null-bit byte and 8 values.
    func fixedBytes(_ ref: Int, width: Int, nullable: Bool) throws -> [Data?] {
        let n = try bytes.node(ref, "\(context) \(width == 12 ? "ObjectId" : "UUID") leaf")
        let block = width * 8 + 1
        let total = n.payloadSize
        let dataBytes = total - (total + block - 1) / block
        guard dataBytes >= 0, dataBytes % width == 0 else {
            throw bytes.corrupt(ref, "\(context): fixed-size leaf of \(total) bytes does not hold whole values")
        }
        let count = dataBytes / width
        return (0..<count).map { i in
            let base = (i / 8) * block
            let bit = i % 8
            if nullable, n.byte(base) & (1 << UInt8(bit)) != 0 { return nil }
            return n.bytes(base + 1 + bit * width, width)
        }
    }

    /// Decimal128 leaves: 16-byte values before format 24; 0, 4, 8 or 16 bytes each in 24 (width
    /// 0: all null, or all zero when the context flag is set).
    func decimals(_ ref: Int) throws -> [CoreValue] {
        let n = try bytes.node(ref, "\(context) decimal leaf")
        guard n.widthType == .multiply else {
            throw bytes.corrupt(ref, "\(context): decimal leaf with a bad width type")
        }
        switch n.width {
        case 0:
            return Array(repeating: n.context ? CoreDecimal.zero : .null, count: n.count)
        case 4:
            return (0..<n.count).map { CoreDecimal.value(CoreDecimal.fromBid32(n.u32(at: $0 * 4))) }
        case 8:
            return (0..<n.count).map { CoreDecimal.value(CoreDecimal.fromBid64(n.u64(at: $0 * 8))) }
        case 16:
            return (0..<n.count).map { CoreDecimal.value((n.u64(at: $0 * 16), n.u64(at: $0 * 16 + 8))) }
        default:
            throw bytes.corrupt(ref, "\(context): decimal leaf with element width \(n.width)")
        }
    }

    /// Links: object keys, stored + 1 (0 is null) in a link column, bare in a B+tree of keys.
    /// A key ≤ −2 is an unresolved link (its target is a tombstone): read as null, as Realm does.
    func links(_ ref: Int, adjusted: Bool, target: Int64) throws -> [CoreValue] {
        let n = try bytes.intArray(ref, "\(context) link leaf")
        return (0..<n.count).map { i in
            let raw = n.int(i)
            if adjusted, raw == 0 { return .null }
            let key = adjusted ? raw &- 1 : raw
            if key <= -2 { return .null }
            return .link(tableKey: target, key: key)
        }
    }

    /// Typed links: pairs of (table key + 1, object key + 1); 0 is null.
    func typedLinks(_ ref: Int) throws -> [CoreValue] {
        let n = try bytes.intArray(ref, "\(context) typed link leaf")
        guard n.count % 2 == 0 else { throw bytes.corrupt(ref, "\(context): typed link leaf of odd size") }
        return stride(from: 0, to: n.count, by: 2).map { i in
            let t = n.int(i)
            let key = n.int(i + 1) &- 1
            if t == 0 || key <= -2 { return .null }
            return .typedLink(tableKey: Int64(UInt32(truncatingIfNeeded: t &- 1) & 0x7FFF_FFFF), key: key)
        }
    }
}
