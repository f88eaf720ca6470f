import Foundation
import RealmEngine

/// One node (Realm Core calls it an array) read from the image: its 8-byte header decoded and
/// checked, and accessors for its elements. Created only through `CoreBytes.node(_:)`, which
/// validates that the whole node lies inside the file.
struct CoreNode {
    /// How the width field of the header is to be read (Realm Core's `WidthType`).
    enum WidthType: UInt8 {
        /// `width` is bits per element (0, 1, 2, 4, 8, 16, 32, 64): integer arrays.
        case bits = 0
        /// `width` is bytes per element: short strings, floats, doubles, decimals.
        case multiply = 1
        /// `count` is a byte count: blobs and fixed-size bytes.
        case ignore = 2
    }

    /// The node's ref (its offset in the file).
    let ref: Int
    /// Inner B+tree node flag (cluster and B+tree inner nodes).
    let isInner: Bool
    /// The elements are refs or tagged integers (a ref is even, a tagged integer odd).
    let hasRefs: Bool
    /// Meaning depends on the node's owner (big blobs, nullable decimals, chunked blobs).
    let context: Bool
    let widthType: WidthType
    /// Decoded width: bits for `.bits`, bytes for `.multiply`, 1 for `.ignore`.
    let width: Int
    /// Element count (bytes for `.ignore`).
    let count: Int
    /// Offset of the payload (ref + 8).
    let data: Int
    /// Bytes of payload the header claims (checked to lie inside the file).
    let payloadSize: Int
    let base: UnsafeRawPointer

    /// The `i`th element as a signed integer of the node's width (callers check `i < count`).
    @inline(__always)
    func int(_ i: Int) -> Int64 {
        let p = base + data
        switch width {
        case 0: return 0
        case 1: return Int64((p.load(fromByteOffset: i >> 3, as: UInt8.self) >> UInt8(i & 7)) & 1)
        case 2: return Int64((p.load(fromByteOffset: i >> 2, as: UInt8.self) >> UInt8((i & 3) << 1)) & 3)
        case 4: return Int64((p.load(fromByteOffset: i >> 1, as: UInt8.self) >> UInt8((i & 1) << 2)) & 15)
        case 8: return Int64(p.load(fromByteOffset: i, as: Int8.self))
        case 16: return Int64(Int16(littleEndian: p.loadUnaligned(fromByteOffset: i << 1, as: Int16.self)))
        case 32: return Int64(Int32(littleEndian: p.loadUnaligned(fromByteOffset: i << 2, as: Int32.self)))
        default: return Int64(littleEndian: p.loadUnaligned(fromByteOffset: i << 3, as: Int64.self))
        }
    }

    /// The `i`th element read as unsigned (Realm Core's `ArrayUnsigned`: cluster keys, offsets).
    @inline(__always)
    func unsigned(_ i: Int) -> UInt64 {
        let p = base + data
        switch width {
        case 8: return UInt64(p.load(fromByteOffset: i, as: UInt8.self))
        case 16: return UInt64(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: i << 1, as: UInt16.self)))
        case 32: return UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i << 2, as: UInt32.self)))
        case 64: return UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i << 3, as: UInt64.self))
        default: return UInt64(bitPattern: int(i))
        }
    }

    /// A raw byte of the payload (callers check `offset < payloadSize`).
    @inline(__always)
    func byte(_ offset: Int) -> UInt8 { (base + data).load(fromByteOffset: offset, as: UInt8.self) }

    /// Little-endian 32/64-bit words of the payload at a byte offset (callers check bounds).
    @inline(__always)
    func u32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: (base + data).loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    @inline(__always)
    func u64(at offset: Int) -> UInt64 {
        UInt64(littleEndian: (base + data).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Payload bytes `offset..<offset+length` (callers check bounds).
    func bytes(_ offset: Int, _ length: Int) -> Data { Data(bytes: base + data + offset, count: length) }
}

/// A checked element of a node that has refs: a ref to another node, a tagged integer, or 0.
enum CoreRefOrTagged: Equatable {
    case null
    case ref(Int)
    case tagged(Int64)
}
