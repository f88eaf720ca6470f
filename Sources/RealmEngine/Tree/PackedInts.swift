/// `count` integers stored as a minimum (`base`) plus unsigned offsets bit-packed at one width
/// out of 0, 1, 2, 4, 8, 16, 32, 64 (Realm's widths). Width 0 means every value equals `base`.
///
/// Block layout (little-endian, no alignment):
/// ```
/// ┌────────┬──────────────┬───────────────────────────────────────┐
/// │ header │ base         │ offsets: ⌈count × width / 8⌉ bytes     │
/// │ 1 byte │ 0–8 bytes    │ value i at bits i·width ..< (i+1)·width│
/// └────────┴──────────────┴───────────────────────────────────────┘
/// header: low 4 bits = width code (index into 0,1,2,4,8,16,32,64), high 4 bits = number of
/// base bytes, the base sign-extended from them (0 bytes = base 0).
/// ```
/// The count is not stored: the enclosing structure knows it. This type is the read view;
/// `PackPlan` chooses the parameters and writes a block.
struct PackedInts {
    /// Bit widths by code.
    static let widthCodes: [Int] = [0, 1, 2, 4, 8, 16, 32, 64]

    /// The narrowest width of `widthCodes` that holds `bits` bits (0...64), computed.
    @inline(__always)
    static func width(holding bits: Int) -> Int {
        bits <= 1 ? bits : 1 << (Int.bitWidth - (bits - 1).leadingZeroBitCount)
    }

    /// The code of a width of `widthCodes` (its index), computed.
    @inline(__always)
    static func code(ofWidth width: Int) -> Int {
        width == 0 ? 0 : width.trailingZeroBitCount + 1
    }

    /// First byte of the packed offsets (validated to hold ⌈count × width / 8⌉ bytes).
    let data: UnsafeRawPointer
    var count: Int
    /// The smallest value; every value is `base &+ offset`.
    let base: Int64
    /// Bits per value: 0, 1, 2, 4, 8, 16, 32 or 64.
    let width: Int

    init(data: UnsafeRawPointer, count: Int, base: Int64, width: Int) {
        self.data = data
        self.count = count
        self.base = base
        self.width = width
    }

    /// An empty view (for column kinds that have no packed part).
    static var empty: PackedInts {
        // Never dereferenced: count is 0.
        PackedInts(data: UnsafeRawPointer(bitPattern: 8).unsafelyUnwrapped, count: 0, base: 0, width: 0)
    }

    /// The value at `i` (0 ≤ i < count; the index is the caller's, so it is checked like `Array`'s).
    @inline(__always)
    subscript(i: Int) -> Int64 {
        precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "PackedInts index out of range")
        return base &+ Int64(bitPattern: offset(i))
    }

    /// The packed offset at `i`, unchecked (callers check the index).
    @inline(__always)
    func offset(_ i: Int) -> UInt64 {
        switch width {
        case 0: return 0
        case 1: return UInt64((data.load(fromByteOffset: i >> 3, as: UInt8.self) >> UInt8(i & 7)) & 1)
        case 2: return UInt64((data.load(fromByteOffset: i >> 2, as: UInt8.self) >> UInt8((i & 3) << 1)) & 3)
        case 4: return UInt64((data.load(fromByteOffset: i >> 1, as: UInt8.self) >> UInt8((i & 1) << 2)) & 15)
        case 8: return UInt64(data.load(fromByteOffset: i, as: UInt8.self))
        case 16: return UInt64(UInt16(littleEndian: data.loadUnaligned(fromByteOffset: i << 1, as: UInt16.self)))
        case 32: return UInt64(UInt32(littleEndian: data.loadUnaligned(fromByteOffset: i << 2, as: UInt32.self)))
        default: return UInt64(littleEndian: data.loadUnaligned(fromByteOffset: i << 3, as: UInt64.self))
        }
    }

    /// How many values lie in `lower ..< upper` — one switch on the width, then a tight loop
    /// (the shape of a `age >= 20 AND age < 30` count over one leaf). Works on the offsets:
    /// `v ∈ [lo, hi)` ⇔ `v − base ∈ [lo − base, hi − base)` evaluated in 128-bit-safe form.
    func count(inRange lower: Int64, _ upper: Int64) -> Int {
        guard lower < upper, count > 0 else { return 0 }
        // Clamp the bounds into offset space [0, 2^64): values below base or above base + max never match.
        let lo: UInt64 = lower <= base ? 0 : UInt64(bitPattern: lower &- base)
        guard upper > base else { return 0 }
        let hi = UInt64(bitPattern: upper &- base)  // exclusive; > 0
        switch width {
        case 0: return lo == 0 ? count : 0
        case 8: return countBytes(lo, hi)
        case 16:
            return countLoop(lo, hi) { p, i in
                UInt64(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: i << 1, as: UInt16.self)))
            }
        case 32:
            return countLoop(lo, hi) { p, i in
                UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i << 2, as: UInt32.self)))
            }
        case 64:
            return countLoop(lo, hi) { p, i in
                UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i << 3, as: UInt64.self))
            }
        default: return countLoop(lo, hi) { p, i in self.offset(i) }
        }
    }

    /// `count(inRange:)` for width 8: eight offsets a step (SWAR) when the range is at most 128
    /// wide, which is exact there (Bit Twiddling Hacks' `hasless`, counted): shift the offsets so
    /// the range starts at 0, then count the bytes below its width.
    private func countBytes(_ lo: UInt64, _ hi: UInt64) -> Int {
        let load = { (p: UnsafeRawPointer, i: Int) in UInt64(p.load(fromByteOffset: i, as: UInt8.self)) }
        guard lo < 256 else { return 0 }
        let span = min(hi, 256) &- lo
        guard span <= 128, count >= 16 else { return countLoop(lo, hi, load) }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high = ones &* 0x80
        let low7 = ones &* 0x7F
        let start = ones &* lo
        let limit = ones &* (127 &+ span)
        var n = 0
        var i = 0
        while i + 8 <= count {
            let x = UInt64(littleEndian: data.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            // Bytewise x - lo (mod 256), no borrow between bytes.
            let d = ((x | high) &- (start & ~high)) ^ ((x ^ ~start) & high)
            n &+= (((limit &- (d & low7)) & ~d) & high).nonzeroBitCount
            i += 8
        }
        while i < count {
            n &+= load(data, i) &- lo < span ? 1 : 0
            i += 1
        }
        return n
    }

    @inline(__always)
    private func countLoop(_ lo: UInt64, _ hi: UInt64, _ load: (UnsafeRawPointer, Int) -> UInt64) -> Int {
        var n = 0
        let span = hi &- lo
        for i in 0..<count where load(data, i) &- lo < span { n += 1 }
        return n
    }

    /// Appends the values at `range` (within 0..<count) to `out`: one switch on the width, then a
    /// tight loop (cluster edits gather the surviving rows this way).
    func unpack(_ range: Range<Int>, into out: inout [Int64]) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "PackedInts range out of bounds")
        let base = self.base
        switch width {
        case 0: out.append(contentsOf: repeatElement(base, count: range.count))
        case 8: for i in range { out.append(base &+ Int64(data.load(fromByteOffset: i, as: UInt8.self))) }
        case 16:
            for i in range {
                out.append(
                    base &+ Int64(UInt16(littleEndian: data.loadUnaligned(fromByteOffset: i << 1, as: UInt16.self))))
            }
        case 32:
            for i in range {
                out.append(
                    base &+ Int64(UInt32(littleEndian: data.loadUnaligned(fromByteOffset: i << 2, as: UInt32.self))))
            }
        case 64:
            for i in range {
                out.append(
                    base
                        &+ Int64(
                            bitPattern: UInt64(
                                littleEndian: data.loadUnaligned(fromByteOffset: i << 3, as: UInt64.self))))
            }
        default: for i in range { out.append(base &+ Int64(bitPattern: offset(i))) }
        }
    }

    /// Every value, in order: one switch on the width, then a tight loop into uninitialized storage.
    func unpackAll() -> [Int64] {
        let base = self.base
        let data = self.data
        return [Int64](uninitializedCapacity: count) { out, initialized in
            switch width {
            case 0:
                out.initialize(repeating: base)
            case 8:
                for i in out.indices { out[i] = base &+ Int64(data.load(fromByteOffset: i, as: UInt8.self)) }
            case 16:
                for i in out.indices {
                    out[i] =
                        base &+ Int64(UInt16(littleEndian: data.loadUnaligned(fromByteOffset: i << 1, as: UInt16.self)))
                }
            case 32:
                for i in out.indices {
                    out[i] =
                        base &+ Int64(UInt32(littleEndian: data.loadUnaligned(fromByteOffset: i << 2, as: UInt32.self)))
                }
            default:
                for i in out.indices { out[i] = base &+ Int64(bitPattern: offset(i)) }
            }
            initialized = out.count
        }
    }

    /// The values at `indices` (ascending, each in 0..<count), in order: one switch on the width,
    /// then a tight loop into uninitialized storage (bulk deletes gather the surviving rows so).
    func gather(_ indices: UnsafeBufferPointer<Int>) -> [Int64] {
        guard let first = indices.first, let last = indices.last else { return [] }
        precondition(first >= 0 && last < count && first <= last, "PackedInts indices out of range")
        let base = self.base
        let data = self.data
        return [Int64](uninitializedCapacity: indices.count) { out, initialized in
            switch width {
            case 0:
                out.initialize(repeating: base)
            case 8:
                for j in indices.indices {
                    out[j] = base &+ Int64(data.load(fromByteOffset: indices[j], as: UInt8.self))
                }
            case 16:
                for j in indices.indices {
                    out[j] =
                        base
                        &+ Int64(
                            UInt16(littleEndian: data.loadUnaligned(fromByteOffset: indices[j] << 1, as: UInt16.self)))
                }
            case 32:
                for j in indices.indices {
                    out[j] =
                        base
                        &+ Int64(
                            UInt32(littleEndian: data.loadUnaligned(fromByteOffset: indices[j] << 2, as: UInt32.self)))
                }
            case 64:
                for j in indices.indices {
                    out[j] =
                        base
                        &+ Int64(
                            bitPattern: UInt64(
                                littleEndian: data.loadUnaligned(fromByteOffset: indices[j] << 3, as: UInt64.self)))
                }
            default:
                for j in indices.indices { out[j] = base &+ Int64(bitPattern: offset(indices[j])) }
            }
            initialized = indices.count
        }
    }
}

/// The parameters of one packed-ints block, chosen from the values; `write` emits it.
struct PackPlan {
    var count: Int
    var base: Int64
    var width: Int
    var baseBytes: Int

    static let empty = PackPlan(count: 0, base: 0, width: 0, baseBytes: 0)

    private init(count: Int, base: Int64, width: Int, baseBytes: Int) {
        self.count = count
        self.base = base
        self.width = width
        self.baseBytes = baseBytes
    }

    /// The plan for values in `min ... max`, at least `minWidth` bits wide.
    init(count: Int, min: Int64, max: Int64, minWidth: Int = 0) {
        let range = UInt64(bitPattern: max &- min)
        let needed = range == 0 ? 0 : 64 - range.leadingZeroBitCount
        let width = PackedInts.width(holding: Swift.min(64, Swift.max(needed, minWidth)))
        self.init(count: count, base: min, width: width, baseBytes: Self.baseBytes(min))
    }

    /// The plan with a given base and width (a block that keeps its parameters while it grows).
    init(count: Int, base: Int64, width: Int) {
        self.init(count: count, base: base, width: width, baseBytes: Self.baseBytes(base))
    }

    /// Bytes the encoder spends on `base`: the fewest that sign-extend back to it (0 for 0).
    static func baseBytes(_ base: Int64) -> Int {
        guard base != 0 else { return 0 }
        for n in 1..<8 {
            let shift = Int64(64 - 8 * n)
            if (base << shift) >> shift == base { return n }
        }
        return 8
    }

    /// The plan for `values` (all of them; callers put a non-null value in null slots).
    init(_ values: [Int64], minWidth: Int = 0) {
        guard var lo = values.first else {
            self.init(count: 0, min: 0, max: 0, minWidth: minWidth)
            return
        }
        var hi = lo
        for v in values {
            lo = Swift.min(lo, v)
            hi = Swift.max(hi, v)
        }
        self.init(count: values.count, min: lo, max: hi, minWidth: minWidth)
    }

    var dataBytes: Int { (count * width + 7) >> 3 }
    var byteSize: Int { 1 + baseBytes + dataBytes }

    /// Writes the header and base, and claims the (zeroed) `dataBytes` of offsets, returning their start.
    func writeHead(to w: inout ByteWriter) -> UnsafeMutableRawPointer {
        let code = PackedInts.code(ofWidth: width)
        w.u8(UInt8(code) | UInt8(baseBytes << 4))
        let b = w.claim(baseBytes)
        let raw = UInt64(bitPattern: base)
        for k in 0..<baseBytes {
            b.storeBytes(of: UInt8(truncatingIfNeeded: raw >> UInt64(8 * k)), toByteOffset: k, as: UInt8.self)
        }
        return w.claim(dataBytes)
    }

    /// Stores the offset of value `i` (`value − base`, which must fit the width) into data bytes
    /// written by `writeHead` (sub-byte widths are OR-ed into the zeroed or partly filled byte).
    @inline(__always)
    func store(_ value: Int64, at i: Int, into p: UnsafeMutableRawPointer) {
        let off = UInt64(bitPattern: value &- base)
        switch width {
        case 0:
            break
        case 1, 2, 4:
            let perByte = 8 / width
            let byte = i / perByte
            let old = p.load(fromByteOffset: byte, as: UInt8.self)
            p.storeBytes(
                of: old | UInt8(truncatingIfNeeded: off << UInt64((i % perByte) * width)), toByteOffset: byte,
                as: UInt8.self)
        case 8: p.storeBytes(of: UInt8(truncatingIfNeeded: off), toByteOffset: i, as: UInt8.self)
        case 16: p.storeBytes(of: UInt16(truncatingIfNeeded: off).littleEndian, toByteOffset: i << 1, as: UInt16.self)
        case 32: p.storeBytes(of: UInt32(truncatingIfNeeded: off).littleEndian, toByteOffset: i << 2, as: UInt32.self)
        default: p.storeBytes(of: off.littleEndian, toByteOffset: i << 3, as: UInt64.self)
        }
    }

    /// Writes the block for `values` (which must be the `count` values the plan was made for)
    /// into zeroed bytes.
    func write(_ values: [Int64], to w: inout ByteWriter) {
        assert(values.count == count)
        let p = writeHead(to: &w)
        let base = self.base
        values.withUnsafeBufferPointer { v in
            switch width {
            case 0:
                break
            case 1, 2, 4:
                let perByte = 8 / width
                let mask = UInt64(1) << UInt64(width) - 1
                for i in 0..<v.count {
                    let off = UInt64(bitPattern: v[i] &- base) & mask
                    let byte = i / perByte
                    let old = p.load(fromByteOffset: byte, as: UInt8.self)
                    p.storeBytes(
                        of: old | UInt8(off << UInt64((i % perByte) * width)), toByteOffset: byte, as: UInt8.self)
                }
            case 8:
                for i in 0..<v.count {
                    p.storeBytes(of: UInt8(truncatingIfNeeded: v[i] &- base), toByteOffset: i, as: UInt8.self)
                }
            case 16:
                for i in 0..<v.count {
                    p.storeBytes(
                        of: UInt16(truncatingIfNeeded: v[i] &- base).littleEndian, toByteOffset: i << 1, as: UInt16.self
                    )
                }
            case 32:
                for i in 0..<v.count {
                    p.storeBytes(
                        of: UInt32(truncatingIfNeeded: v[i] &- base).littleEndian, toByteOffset: i << 2, as: UInt32.self
                    )
                }
            default:
                for i in 0..<v.count {
                    p.storeBytes(
                        of: UInt64(bitPattern: v[i] &- base).littleEndian, toByteOffset: i << 3, as: UInt64.self)
                }
            }
        }
    }
}
