import Foundation
import RealmEngine

/// The validated view of an image every reader goes through: every ref is checked (inside the
/// file, 8-aligned, after the header, a node header that makes sense and a payload that fits)
/// before a node is made from it, so damaged files give a `RealmError`, never a crash.
struct CoreBytes: @unchecked Sendable {
    let image: RealmCoreImage
    /// Name used in error messages (the file's path, or a description of the image).
    let name: String
    let base: UnsafeRawPointer
    let size: Int

    init(image: RealmCoreImage, name: String) {
        self.image = image
        self.name = name
        self.size = image.bytes.count
        // An empty buffer may have a nil base; a 1-byte dummy keeps `base` valid and `size` 0.
        self.base = image.bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(Self.empty)
    }

    nonisolated(unsafe) private static let empty: UnsafeMutableRawPointer = UnsafeMutableRawPointer.allocate(
        byteCount: 8, alignment: 8)

    /// A `corruptFile` error for this image.
    func corrupt(_ offset: Int, _ reason: String) -> RealmError {
        .corruptFile(path: name, offset: UInt64(max(offset, 0)), reason: reason)
    }

    func u64(at offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    func byte(at offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }

    /// The node at `ref`, validated. `what` names the structure for the error message.
    func node(_ ref: Int, _ what: @autoclosure () -> String) throws -> CoreNode {
        guard ref >= 24, ref & 7 == 0, ref <= size - 8 else {
            throw corrupt(ref, "\(what()): ref \(ref) is outside the file (size \(size)) or not 8-aligned")
        }
        guard base.loadUnaligned(fromByteOffset: ref, as: UInt32.self) == 0x4141_4141 else {
            throw corrupt(ref, "\(what()): no node header (AAAA) at ref \(ref)")
        }
        let flags = byte(at: ref + 4)
        let count = Int(byte(at: ref + 5)) << 16 | Int(byte(at: ref + 6)) << 8 | Int(byte(at: ref + 7))
        let code = Int(flags & 7)
        let rawWidthType = (flags >> 3) & 3
        guard let widthType = CoreNode.WidthType(rawValue: rawWidthType) else {
            throw RealmError.unsupportedFormat(
                "\(name): \(what()) at \(ref) is a compressed array (width type 3): Realm file format 25 (Realm Core next-major) is not supported"
            )
        }
        let width = (1 << code) >> 1
        let payload: Int
        switch widthType {
        case .bits:
            let (bits, o1) = count.multipliedReportingOverflow(by: width)
            guard !o1 else { throw corrupt(ref, "\(what()): size overflows") }
            payload = (bits + 7) / 8
        case .multiply:
            let (b, o1) = count.multipliedReportingOverflow(by: width)
            guard !o1 else { throw corrupt(ref, "\(what()): size overflows") }
            payload = b
        case .ignore:
            payload = count
        }
        guard payload <= size - ref - 8 else {
            throw corrupt(ref, "\(what()): node of \(count) elements (width \(width)) runs past the end of the file")
        }
        return CoreNode(
            ref: ref, isInner: flags & 0x80 != 0, hasRefs: flags & 0x40 != 0, context: flags & 0x20 != 0,
            widthType: widthType, width: widthType == .ignore ? 1 : width, count: count,
            data: ref + 8, payloadSize: payload, base: base)
    }

    /// An integer array node (width type bits), checked.
    func intArray(_ ref: Int, _ what: @autoclosure () -> String) throws -> CoreNode {
        let n = try node(ref, what())
        guard n.widthType == .bits else { throw corrupt(ref, "\(what()): expected an integer array") }
        return n
    }

    /// Element `i` of a has-refs node as ref, tagged integer or null; refs are not followed here.
    func refOrTagged(_ n: CoreNode, _ i: Int, _ what: @autoclosure () -> String) throws -> CoreRefOrTagged {
        guard i >= 0, i < n.count else { throw corrupt(n.ref, "\(what()): slot \(i) missing (node has \(n.count))") }
        let v = n.int(i)
        if v == 0 { return .null }
        if v & 1 == 1 { return .tagged(v >> 1) }
        guard v > 0, v <= Int64(size) else {
            throw corrupt(n.ref, "\(what()): ref \(v) in slot \(i) is outside the file")
        }
        return .ref(Int(v))
    }

    /// Element `i` as a ref (0 allowed, returned as nil); a tagged value there is corruption.
    func ref(_ n: CoreNode, _ i: Int, _ what: @autoclosure () -> String) throws -> Int? {
        switch try refOrTagged(n, i, what()) {
        case .null: return nil
        case .ref(let r): return r
        case .tagged: throw corrupt(n.ref, "\(what()): expected a ref in slot \(i), found a tagged integer")
        }
    }

    /// Element `i` as a tagged integer (nil when the slot is absent or 0).
    func tagged(_ n: CoreNode, _ i: Int, _ what: @autoclosure () -> String) throws -> Int64? {
        guard i < n.count else { return nil }
        switch try refOrTagged(n, i, what()) {
        case .null: return nil
        case .tagged(let v): return v
        case .ref: throw corrupt(n.ref, "\(what()): expected a tagged integer in slot \(i), found a ref")
        }
    }
}
