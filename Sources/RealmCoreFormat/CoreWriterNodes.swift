import Foundation
import RealmEngine

/// One element of a node that has refs, as the writer fills it: a ref to a node already
/// written, a tagged integer (stored `v << 1 | 1`), or 0.
enum CoreSlot {
    case null
    case ref(Int)
    case tagged(Int64)

    var stored: Int64 {
        switch self {
        case .null: 0
        case .ref(let r): Int64(r)
        case .tagged(let v): v << 1 | 1
        }
    }
}

/// Appends Realm Core nodes (arrays) to a file image, children before their parents, each at
/// an 8-aligned ref and padded to a multiple of 8 bytes, so the nodes tile the file with no gap
/// (Realm Core's memory check wants every byte after the header used or free).
struct CoreNodeWriter {
    /// The image: the 24 header bytes (filled in last), then the nodes; or, for nodes added to
    /// an existing file (`init(fileName:origin:)`), the nodes only.
    private(set) var bytes: [UInt8] = Array(repeating: 0, count: 24)
    /// Names the structure being written, for error messages.
    let fileName: String
    /// The file offset of `bytes[0]`: 0 for a whole file, where the nodes go in an existing one.
    let origin: Int

    init(fileName: String) {
        self.fileName = fileName
        origin = 0
    }

    /// A writer of nodes that will be placed at file offset `origin` (8-aligned) of an existing
    /// file: refs count from there (the in-place commit, `RealmCoreInPlaceCommit`).
    init(fileName: String, origin: Int) {
        self.fileName = fileName
        self.origin = origin
        bytes = []
    }

    /// The largest element count a node header holds (24 bits).
    static let maxCount = (1 << 24) - 1

    /// The header width code of a width (bits or bytes): 0, 1, 2, 4, 8, 16, 32, 64 → 0…7.
    private static func code(_ width: Int) -> UInt8 {
        switch width {
        case 0: 0
        case 1: 1
        case 2: 2
        case 4: 3
        case 8: 4
        case 16: 5
        case 32: 6
        default: 7
        }
    }

    /// Writes a node header and `payload`, returns its ref.
    private mutating func node(
        inner: Bool = false, hasRefs: Bool = false, context: Bool = false, widthType: UInt8,
        width: Int, count: Int, payload: [UInt8], what: @autoclosure () -> String
    ) throws -> Int {
        guard count <= Self.maxCount else {
            throw RealmError.unsupportedFeature(
                "\(fileName): \(what()) has \(count) elements; a Realm Core node holds at most \(Self.maxCount)")
        }
        let ref = origin + bytes.count
        var flags: UInt8 = Self.code(width) | widthType << 3
        if inner { flags |= 0x80 }
        if hasRefs { flags |= 0x40 }
        if context { flags |= 0x20 }
        bytes += [
            0x41, 0x41, 0x41, 0x41, flags, UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF),
        ]
        bytes += payload
        let padding = (8 - bytes.count % 8) % 8
        if padding > 0 { bytes += repeatElement(0, count: padding) }
        return ref
    }

    /// The smallest bit width Realm Core's `Array` stores all of `values` in: 0, 1, 2, 4 hold
    /// non-negative values only; 8 and up are signed.
    static func bitWidth<S: Sequence>(_ values: S) -> Int where S.Element == Int64 {
        var low: Int64 = 0
        var high: Int64 = 0
        for v in values {
            low = min(low, v)
            high = max(high, v)
        }
        return bitWidth(low: low, high: high)
    }

    static func bitWidth(low: Int64, high: Int64) -> Int {
        if low >= 0 {
            if high == 0 { return 0 }
            if high <= 1 { return 1 }
            if high <= 3 { return 2 }
            if high <= 15 { return 4 }
        }
        if low >= Int64(Int8.min), high <= Int64(Int8.max) { return 8 }
        if low >= Int64(Int16.min), high <= Int64(Int16.max) { return 16 }
        if low >= Int64(Int32.min), high <= Int64(Int32.max) { return 32 }
        return 64
    }

    /// Packs `values` at `width` bits each, little-endian.
    static func pack(_ values: [Int64], width: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: (values.count * width + 7) / 8)
        switch width {
        case 0: break
        case 1, 2, 4:
            let mask = Int64((1 << width) - 1)
            for (i, v) in values.enumerated() {
                let bit = i * width
                out[bit >> 3] |= UInt8(truncatingIfNeeded: (v & mask) << Int64(bit & 7))
            }
        default:
            let n = width / 8
            for (i, v) in values.enumerated() {
                var u = UInt64(bitPattern: v)
                for b in 0..<n {
                    out[i * n + b] = UInt8(truncatingIfNeeded: u)
                    u >>= 8
                }
            }
        }
        return out
    }

    /// An integer array (`Array`), at the smallest width that holds the values.
    mutating func ints(_ values: [Int64], context: Bool = false, what: @autoclosure () -> String) throws -> Int {
        let width = Self.bitWidth(values)
        return try node(
            context: context, widthType: 0, width: width, count: values.count,
            payload: Self.pack(values, width: width), what: what())
    }

    /// An integer array at a given width (callers make sure every value fits).
    mutating func ints(_ values: [Int64], width: Int, what: @autoclosure () -> String) throws -> Int {
        try node(
            widthType: 0, width: width, count: values.count, payload: Self.pack(values, width: width), what: what())
    }

    /// An unsigned integer array (`ArrayUnsigned`: cluster keys, inner node offsets): 8, 16,
    /// 32 or 64 bits.
    mutating func unsigned(_ values: [UInt64], what: @autoclosure () -> String) throws -> Int {
        let high = values.max() ?? 0
        let width = high <= 0xFF ? 8 : high <= 0xFFFF ? 16 : high <= 0xFFFF_FFFF ? 32 : 64
        return try node(
            widthType: 0, width: width, count: values.count,
            payload: Self.pack(values.map { Int64(bitPattern: $0) }, width: width), what: what())
    }

    /// A node of refs and tagged integers.
    /// `minimumWidth` 64 keeps a node's size independent of its values (the group top, which
    /// holds the file's own size).
    mutating func slots(
        _ slots: [CoreSlot], inner: Bool = false, context: Bool = false, minimumWidth: Int = 0,
        what: @autoclosure () -> String
    ) throws -> Int {
        let values = slots.map(\.stored)
        let width = max(Self.bitWidth(values), minimumWidth)
        return try node(
            inner: inner, hasRefs: true, context: context, widthType: 0, width: width, count: values.count,
            payload: Self.pack(values, width: width), what: what())
    }

    /// A node of `count` elements of `width` bytes each (width type multiply).
    mutating func multiply(
        width: Int, count: Int, payload: [UInt8], context: Bool = false,
        what: @autoclosure () -> String
    ) throws -> Int {
        try node(context: context, widthType: 1, width: width, count: count, payload: payload, what: what())
    }

    /// A blob (`ArrayBlob`: width type ignore, the count is the byte count).
    mutating func blob(_ payload: [UInt8], what: @autoclosure () -> String) throws -> Int {
        try node(widthType: 2, width: 0, count: payload.count, payload: payload, what: what())
    }

    /// Fills in the header: the top ref in slot 0, slot 0 selected, `T-DB`, format 24 in both
    /// slots' format bytes.
    mutating func finish(topRef: Int) -> [UInt8] {
        var u = UInt64(topRef)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: u)
            u >>= 8
        }
        for i in 8..<16 { bytes[i] = 0 }
        bytes[16] = 0x54
        bytes[17] = 0x2D
        bytes[18] = 0x44
        bytes[19] = 0x42
        bytes[20] = 24
        bytes[21] = 24
        bytes[22] = 0
        bytes[23] = 0
        return bytes
    }

    /// Fills in the streaming form's header (`Group::write`, as `writeCopy` and compaction
    /// write: top refs 0xFFFF…FF and 0, `T-DB`, the format in the first format byte only,
    /// flags 0) and appends its footer (the top ref, then the cookie), after zeros up to the
    /// last 16 bytes of a 4 KiB page when `pageAligned` (an encrypted file is whole pages, and
    /// Realm Core reads the footer from the end of the last one).
    mutating func finishStreaming(topRef: Int, pageAligned: Bool) -> [UInt8] {
        for i in 0..<8 { bytes[i] = 0xFF }
        for i in 8..<16 { bytes[i] = 0 }
        bytes[16] = 0x54
        bytes[17] = 0x2D
        bytes[18] = 0x44
        bytes[19] = 0x42
        bytes[20] = 24
        bytes[21] = 0
        bytes[22] = 0
        bytes[23] = 0
        if pageAligned {
            let page = 4096
            let padded = (bytes.count + 16 + page - 1) / page * page
            bytes.append(contentsOf: repeatElement(0, count: padded - 16 - bytes.count))
        }
        for value in [UInt64(topRef), RealmCoreHeader.footerCookie] {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// The ref the next node will get (the image's current size).
    var end: Int { origin + bytes.count }

    /// A copy of a has-refs node read from a file with some of its elements changed: the same
    /// flags (inner, context), each element as stored (refs, tagged integers), at the old width
    /// or wider when a new value needs it.
    mutating func copy(
        of node: CoreNode, replacing changes: [Int: Int64], minimumWidth: Int = 0,
        what: @autoclosure () -> String
    ) throws -> Int {
        guard node.widthType == .bits else {
            throw RealmError.internalError(
                "\(fileName): \(what()) at \(node.ref) is not an integer array; it cannot be copied slot by slot")
        }
        var values = (0..<node.count).map { node.int($0) }
        for (i, v) in changes where values.indices.contains(i) { values[i] = v }
        let width = max(Self.bitWidth(values), node.width, minimumWidth)
        return try self.node(
            inner: node.isInner, hasRefs: node.hasRefs, context: node.context, widthType: 0, width: width,
            count: values.count, payload: Self.pack(values, width: width), what: what())
    }
}
