/// The text of one cell: a grapheme cluster's UTF-8 bytes kept inline, so a cell has no
/// reference to count and a grid is made, copied, compared and freed as plain memory (a frame
/// is a few thousand cells, made and diffed on every key press).
///
/// It holds up to `capacity` bytes. A longer cluster keeps its first scalars that fit: that is
/// still everything a terminal cell can show through ncurses, which draws one spacing character
/// and at most four combining ones (`CCHARW_MAX`), 20 bytes at most.
struct Glyph: Sendable, Hashable {
    /// The most bytes a glyph holds.
    static let capacity = 23

    // Bytes 0–7, 8–15 and 16–22 in memory order; the last byte of `high` is the count.
    private var low: UInt64 = 0
    private var middle: UInt64 = 0
    private var high: UInt64 = 0

    /// The glyph of a blank cell, " ".
    static let blank = Glyph(ascii: 0x20)
    /// The empty glyph of the right half of a wide character.
    static let continuation = Glyph("")

    /// The glyph of `text`'s UTF-8, cut at a scalar boundary when longer than `capacity`.
    init(_ text: String) {
        var text = text
        self = text.withUTF8 { Glyph(bytes: $0) }
    }

    /// The glyph of one scalar.
    init(_ scalar: Unicode.Scalar) {
        var count = 0
        withUnsafeMutableBytes(of: &self) { storage in
            UTF8.encode(scalar) { byte in
                storage[count] = byte
                count += 1
            }
            storage[Self.capacity] = UInt8(count)
        }
    }

    /// The glyph of one ASCII byte.
    init(ascii byte: UInt8) {
        low = UInt64(byte).littleEndian
        high = (UInt64(1) << 56).littleEndian
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        var count = bytes.count
        if count > Self.capacity {
            // Back up to the start of a scalar (a byte that is not 0b10xxxxxx).
            count = Self.capacity
            while count > 0, bytes[count] & 0xC0 == 0x80 { count -= 1 }
        }
        withUnsafeMutableBytes(of: &self) { storage in
            storage.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[0..<count]))
            storage[Self.capacity] = UInt8(count)
        }
    }

    /// How many bytes it holds.
    var count: Int { Int(UInt64(littleEndian: high) >> 56) }

    /// Whether it holds nothing (the right half of a wide character).
    var isEmpty: Bool { count == 0 }

    /// The text.
    var text: String {
        withUnsafeBytes(of: self) { String(decoding: $0[0..<count], as: UTF8.self) }
    }
}
