import Foundation
import RealmEngine

/// String and binary leaves: Realm Core's `ArrayString` (short strings inline, medium strings in
/// small blobs, long strings in big blobs; enum strings as indexes into the spec's keys) and
/// `ArrayBinary` (small or big blobs, a big blob possibly in chunks).
extension CoreLeafDecoder {
    /// The raw bytes of each element of a string leaf (nil for null), without the trailing 0.
    func stringBytes(_ ref: Int, nullable: Bool) throws -> [Data?] {
        let n = try bytes.node(ref, "\(context) string leaf")
        if !n.hasRefs {
            guard n.widthType == .multiply else {
                throw bytes.corrupt(ref, "\(context): short string leaf with a bad width type")
            }
            let w = n.width
            if w == 0 { return Array(repeating: nullable ? nil : Data(), count: n.count) }
            var out: [Data?] = []
            out.reserveCapacity(n.count)
            for i in 0..<n.count {
                let start = i * w
                let last = Int(n.byte(start + w - 1))
                if last == w {
                    out.append(nullable ? nil : Data())
                    continue
                }
                let length = w - 1 - last
                guard length >= 0 else {
                    throw bytes.corrupt(ref, "\(context): short string \(i) has a bad length byte")
                }
                out.append(n.bytes(start, length))
            }
            return out
        }
        if !n.context { return try smallBlobs(n, isString: true) }
        return try bigBlobs(n, isString: true, nullable: nullable)
    }

    /// Small blobs (`ArraySmallBlobs`): end offsets, one blob of bytes, and a null flag per element.
    func smallBlobs(_ n: CoreNode, isString: Bool) throws -> [Data?] {
        guard n.count >= 2, let offsetsRef = try bytes.ref(n, 0, "\(context) blob offsets"),
            let blobRef = try bytes.ref(n, 1, "\(context) blob")
        else {
            throw bytes.corrupt(n.ref, "\(context): malformed small-blob leaf")
        }
        let offsets = try bytes.intArray(offsetsRef, "\(context) blob offsets")
        let blob = try bytes.node(blobRef, "\(context) blob")
        var nulls: CoreNode?
        if n.count >= 3, let nullsRef = try bytes.ref(n, 2, "\(context) blob nulls") {
            let z = try bytes.intArray(nullsRef, "\(context) blob nulls")
            guard z.count == offsets.count else {
                throw bytes.corrupt(nullsRef, "\(context): null flags and offsets disagree")
            }
            nulls = z
        }
        var out: [Data?] = []
        out.reserveCapacity(offsets.count)
        var begin = 0
        for i in 0..<offsets.count {
            let end = Int(offsets.int(i))
            guard end >= begin, end <= blob.payloadSize else {
                throw bytes.corrupt(offsetsRef, "\(context): blob offset \(end) out of range")
            }
            defer { begin = end }
            if let nulls, nulls.int(i) != 0 {
                out.append(nil)
                continue
            }
            let length = end - begin - (isString ? 1 : 0)
            guard length >= 0 else { throw bytes.corrupt(offsetsRef, "\(context): string \(i) without its terminator") }
            out.append(blob.bytes(begin, length))
        }
        return out
    }

    /// Big blobs (`ArrayBigBlobs`): a ref per element (0 for null) to a blob, maybe chunked.
    func bigBlobs(_ n: CoreNode, isString: Bool, nullable: Bool) throws -> [Data?] {
        var out: [Data?] = []
        out.reserveCapacity(n.count)
        for i in 0..<n.count {
            guard let r = try bytes.ref(n, i, "\(context) big blob") else {
                out.append(nullable ? nil : Data())
                continue
            }
            var data = try blobBytes(r, depth: 0)
            if isString {
                guard !data.isEmpty else { throw bytes.corrupt(r, "\(context): long string without its terminator") }
                data.removeLast()
            }
            out.append(data)
        }
        return out
    }

    /// One blob's bytes; a blob with refs is a list of chunks (binaries over 16 MB).
    func blobBytes(_ ref: Int, depth: Int) throws -> Data {
        let b = try bytes.node(ref, "\(context) blob")
        guard b.hasRefs else { return b.bytes(0, b.payloadSize) }
        guard depth == 0 else { throw bytes.corrupt(ref, "\(context): nested blob chunks") }
        var data = Data()
        for i in 0..<b.count {
            guard let c = try bytes.ref(b, i, "\(context) blob chunk") else { continue }
            data.append(try blobBytes(c, depth: 1))
        }
        return data
    }

    /// A string leaf as values (`enumKeys`: the spec's keys when the column is an enum column).
    func strings(_ ref: Int, nullable: Bool, enumKeys: [Data?]?) throws -> [CoreValue] {
        if let enumKeys {
            let n = try bytes.intArray(ref, "\(context) enum string leaf")
            return try (0..<n.count).map { i in
                let k = n.int(i)
                guard k >= 0, k < Int64(enumKeys.count) else {
                    throw bytes.corrupt(ref, "\(context): enum string index \(k) outside the \(enumKeys.count) keys")
                }
                return enumKeys[Int(k)].map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null
            }
        }
        return try stringBytes(ref, nullable: nullable).map {
            $0.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null
        }
    }

    /// A binary leaf as values.
    func binaries(_ ref: Int, nullable: Bool) throws -> [CoreValue] {
        let n = try bytes.node(ref, "\(context) binary leaf")
        guard n.hasRefs else { throw bytes.corrupt(ref, "\(context): binary leaf without refs") }
        let raw = n.context ? try bigBlobs(n, isString: false, nullable: nullable) : try smallBlobs(n, isString: false)
        return raw.map { $0.map { .binary($0) } ?? .null }
    }
}
