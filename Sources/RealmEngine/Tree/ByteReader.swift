/// Bytes read from a file that do not make sense: where (relative to the start of the payload
/// being decoded) and why. Codecs throw this; the caller, which knows the file and the node's
/// offset, maps it with `realmError(path:nodeOffset:)`.
struct CodecError: Error, Equatable, CustomStringConvertible {
    /// Offset of the bad structure, relative to the start of the payload.
    var offset: Int
    var reason: String

    init(offset: Int, _ reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// The engine error for a payload found at `nodeOffset` of the file at `path`.
    func realmError(path: String, nodeOffset: UInt64) -> RealmError {
        .corruptFile(path: path, offset: nodeOffset &+ UInt64(max(0, offset)), reason: reason)
    }

    var description: String { "at +\(offset): \(reason)" }
}

/// A bounded cursor over untrusted bytes. Every read checks against `end` and throws
/// `CodecError` rather than trapping; what it returns (pointers, packed views) is then safe to
/// index within the extent it validated.
struct ByteReader {
    let base: UnsafeRawPointer
    /// Next byte, relative to `base`.
    private(set) var position: Int
    /// One past the last readable byte, relative to `base`.
    let end: Int

    init(_ base: UnsafeRawPointer, position: Int = 0, end: Int) {
        self.base = base
        self.position = position
        self.end = end
    }

    var remaining: Int { end - position }

    func fail(_ reason: String) -> CodecError { CodecError(offset: position, reason) }

    /// The next `count` bytes; throws unless all of them lie before `end`.
    mutating func take(_ count: Int, _ what: @autoclosure () -> String) throws -> UnsafeRawPointer {
        guard count >= 0, count <= end - position else {
            throw fail("\(what()) needs \(count) bytes, \(end - position) remain")
        }
        let p = base + position
        position += count
        return p
    }

    mutating func u8(_ what: @autoclosure () -> String) throws -> UInt8 {
        try take(1, what()).load(as: UInt8.self)
    }

    mutating func u16(_ what: @autoclosure () -> String) throws -> UInt16 {
        UInt16(littleEndian: try take(2, what()).loadUnaligned(as: UInt16.self))
    }

    mutating func u32(_ what: @autoclosure () -> String) throws -> UInt32 {
        UInt32(littleEndian: try take(4, what()).loadUnaligned(as: UInt32.self))
    }

    /// A packed-ints block of `count` values (layout in `PackedInts`).
    mutating func packedInts(count: Int, _ what: @autoclosure () -> String) throws -> PackedInts {
        let header = try u8(what())
        let code = Int(header & 0x0F)
        let baseBytes = Int(header >> 4)
        guard code < PackedInts.widthCodes.count, baseBytes <= 8 else {
            position -= 1
            throw fail("\(what()): bad packed-ints header 0x\(String(header, radix: 16))")
        }
        let width = PackedInts.widthCodes[code]
        let b = try take(baseBytes, what())
        var raw: UInt64 = 0
        for k in 0..<baseBytes { raw |= UInt64(b.load(fromByteOffset: k, as: UInt8.self)) << UInt64(8 * k) }
        var minValue = Int64(bitPattern: raw)
        if baseBytes > 0 && baseBytes < 8 {
            let shift = Int64(64 - 8 * baseBytes)
            minValue = (minValue << shift) >> shift
        }
        let (bits, overflow) = count.multipliedReportingOverflow(by: width)
        guard count >= 0, !overflow, bits <= Int.max - 7 else { throw fail("\(what()): \(count) values do not fit") }
        let data = try take((bits + 7) >> 3, what())
        return PackedInts(data: data, count: count, base: minValue, width: width)
    }
}
