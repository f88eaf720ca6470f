import Foundation
import RealmEngine

/// Mixed leaves (`ArrayMixed`): a composite array (per element: type + 1 in the low 5 bits,
/// which payload array in bits 5–7, and a small value or an index into that payload from bit 8),
/// then the payload arrays: 64-bit ints, int pairs, strings, refs (nested collections, format 24).
extension CoreLeafDecoder {
    static let maxNesting = 32

    func mixed(_ ref: Int, depth: Int) throws -> [CoreValue] {
        guard depth < Self.maxNesting else { throw bytes.corrupt(ref, "\(context): Mixed collections nested too deep") }
        let top = try bytes.node(ref, "\(context) Mixed leaf")
        guard top.hasRefs, top.count >= 1, let compositeRef = try bytes.ref(top, 0, "\(context) Mixed types") else {
            throw bytes.corrupt(ref, "\(context): malformed Mixed leaf")
        }
        let composite = try bytes.intArray(compositeRef, "\(context) Mixed types")
        var intsNode: CoreNode?
        var pairsNode: CoreNode?
        var refsNode: CoreNode?
        var stringsCache: [Data?]?
        func payload(_ slot: Int, _ what: String) throws -> CoreNode {
            guard slot < top.count, let r = try bytes.ref(top, slot, "\(context) Mixed \(what)") else {
                throw bytes.corrupt(ref, "\(context): Mixed value refers to a missing \(what) array")
            }
            return try bytes.intArray(r, "\(context) Mixed \(what)")
        }
        func intAt(_ i: Int64) throws -> Int64 {
            if intsNode == nil { intsNode = try payload(1, "ints") }
            guard let n = intsNode, i >= 0, i < Int64(n.count) else {
                throw bytes.corrupt(ref, "\(context): Mixed int index out of range")
            }
            return n.int(Int(i))
        }
        func pairAt(_ i: Int64) throws -> (Int64, Int64) {
            if pairsNode == nil { pairsNode = try payload(2, "pairs") }
            guard let n = pairsNode, i >= 0, i < Int64(n.count / 2) else {
                throw bytes.corrupt(ref, "\(context): Mixed pair index out of range")
            }
            return (n.int(Int(i) * 2), n.int(Int(i) * 2 + 1))
        }
        func stringAt(_ i: Int64) throws -> Data? {
            if stringsCache == nil {
                guard top.count > 3, let r = try bytes.ref(top, 3, "\(context) Mixed strings") else {
                    throw bytes.corrupt(ref, "\(context): Mixed value refers to a missing strings array")
                }
                stringsCache = try stringBytes(r, nullable: true)
            }
            guard let s = stringsCache, i >= 0, i < Int64(s.count) else {
                throw bytes.corrupt(ref, "\(context): Mixed string index out of range")
            }
            return s[Int(i)]
        }
        func refAt(_ i: Int64) throws -> Int? {
            if refsNode == nil {
                guard top.count > 4, let r = try bytes.ref(top, 4, "\(context) Mixed refs") else {
                    throw bytes.corrupt(ref, "\(context): Mixed value refers to a missing refs array")
                }
                refsNode = try bytes.node(r, "\(context) Mixed refs")
            }
            guard let n = refsNode, i >= 0, i < Int64(n.count) else {
                throw bytes.corrupt(ref, "\(context): Mixed ref index out of range")
            }
            return try bytes.ref(n, Int(i), "\(context) Mixed nested collection")
        }
        var out: [CoreValue] = []
        out.reserveCapacity(composite.count)
        for i in 0..<composite.count {
            let v = composite.int(i)
            if v == 0 {
                out.append(.null)
                continue
            }
            let type = Int(v & 0x1F) - 1
            let payloadIndex = Int((v & 0xE0) >> 5)
            let value = v >> 8
            switch type {
            case 0: out.append(.int(payloadIndex != 0 ? try intAt(value) : value))
            case 1: out.append(.bool(value != 0))
            case 9: out.append(.float(Float(bitPattern: UInt32(truncatingIfNeeded: try intAt(value)))))
            case 10: out.append(.double(Double(bitPattern: UInt64(bitPattern: try intAt(value)))))
            case 2: out.append(try stringAt(value).map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null)
            case 4: out.append(try stringAt(value).map { .binary($0) } ?? .null)
            case 8:
                let (s, ns) = try pairAt(value)
                out.append(.timestamp(seconds: s, nanoseconds: Int32(truncatingIfNeeded: ns)))
            case 15, 17:
                let width = type == 15 ? 12 : 16
                guard let d = try stringAt(value), d.count >= width else {
                    throw bytes.corrupt(ref, "\(context): Mixed \(type == 15 ? "ObjectId" : "UUID") of the wrong size")
                }
                let raw = d.prefix(width)
                out.append(type == 15 ? .objectId(Data(raw)) : .uuid(Data(raw)))
            case 11:
                let (lo, hi) = try pairAt(value)
                out.append(CoreDecimal.value((UInt64(bitPattern: lo), UInt64(bitPattern: hi))))
            case 12:
                out.append(.link(tableKey: -1, key: try intAt(value)))
            case 16:
                let (t, k) = try pairAt(value)
                // A link to a tombstone (unresolved, key ≤ −2) reads as null, as `Obj::get_any` gives it.
                out.append(k <= -2 ? .null : .typedLink(tableKey: Int64(UInt32(truncatingIfNeeded: t)), key: k))
            case 19, 21:
                guard payloadIndex == 4 else {
                    throw bytes.corrupt(ref, "\(context): Mixed collection not in the refs array")
                }
                let r = try refAt(value)
                if type == 19 {
                    out.append(.list(try r.map { try mixedList($0, depth: depth + 1) } ?? []))
                } else {
                    out.append(.dictionary(try r.map { try dictionary($0, values: nil, depth: depth + 1) } ?? []))
                }
            default:
                throw bytes.corrupt(ref, "\(context): Mixed value of unknown type \(type)")
            }
        }
        return out
    }

    /// A list nested in a Mixed: a B+tree of Mixed.
    func mixedList(_ ref: Int, depth: Int) throws -> [CoreValue] {
        try bplusTree(ref) { try mixed($0, depth: depth) }
    }
}
