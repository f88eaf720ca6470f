/// Writes little-endian values into a region of known size (the cluster codec computes the exact
/// encoded size first, zero-fills it in the destination `[UInt8]` once, then writes through one
/// raw pointer — no per-byte `append`, no reallocation).
///
/// Every write claims its bytes first; `claim` checks the claim against the region once
/// (a disagreement between the size plan and the writes is our bug, so it is a precondition,
/// never a silent overrun). Inside a claimed block, callers store without further checks.
struct ByteWriter {
    /// Start of the region; offsets are relative to it.
    let base: UnsafeMutableRawPointer
    /// Bytes in the region.
    let capacity: Int
    /// Next byte to write, relative to `base`.
    private(set) var position = 0

    init(_ base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Reserves the next `count` bytes (zeroed by the caller's fill) and returns their start.
    @inline(__always)
    mutating func claim(_ count: Int) -> UnsafeMutableRawPointer {
        precondition(count >= 0 && count <= capacity - position, "ByteWriter: size plan and writes disagree")
        let p = base + position
        position += count
        return p
    }

    mutating func u8(_ v: UInt8) { claim(1).storeBytes(of: v, as: UInt8.self) }
    mutating func u16(_ v: UInt16) { claim(2).storeBytes(of: v.littleEndian, as: UInt16.self) }
    mutating func u32(_ v: UInt32) { claim(4).storeBytes(of: v.littleEndian, as: UInt32.self) }
    mutating func u64(_ v: UInt64) { claim(8).storeBytes(of: v.littleEndian, as: UInt64.self) }

    /// Copies raw bytes.
    mutating func bytes(_ src: UnsafeRawBufferPointer) {
        let p = claim(src.count)
        if let s = src.baseAddress, src.count > 0 { p.copyMemory(from: s, byteCount: src.count) }
    }

    /// Overwrites a 32-bit value at an offset already written (offset tables).
    func patchU32(_ v: UInt32, at offset: Int) {
        precondition(offset >= 0 && offset + 4 <= position, "ByteWriter: patch outside written bytes")
        (base + offset).storeBytes(of: v.littleEndian, as: UInt32.self)
    }
}
