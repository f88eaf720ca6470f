import Foundation
import RealmEngine

/// Column leaves of a cluster, encoded as Realm Core 14 encodes them in format 24 (the same
/// layouts `CoreLeafDecoder` reads): integers (`ArrayIntNull` with its null value in element 0
/// when nullable), booleans, floats and doubles (with Realm's null NaNs), strings in the three
/// `ArrayString` forms, binaries, timestamps, decimals, ObjectIds and UUIDs.
extension CoreNodeWriter {
    /// Writes the leaf holding `values` of one column; `what` names the class and property.
    mutating func leaf(
        _ values: ArraySlice<CoreValue>, type: CoreColumnType, nullable: Bool,
        what: @autoclosure () -> String
    ) throws -> Int {
        let context = what()
        func mismatch(_ v: CoreValue) -> RealmError {
            .invalidInput("\(context): a \(type.name) column cannot hold \(v.typeName)")
        }
        func nullCheck(_ v: CoreValue) throws {
            if case .null = v, !nullable {
                throw RealmError.invalidInput("\(context): nil in a required \(type.name) column")
            }
        }
        switch type {
        case .int:
            var ints: [Int64?] = []
            ints.reserveCapacity(values.count)
            for v in values {
                try nullCheck(v)
                switch v {
                case .int(let i): ints.append(i)
                case .null: ints.append(nil)
                default: throw mismatch(v)
                }
            }
            return nullable ? try nullableInts(ints, what: context) : try self.ints(ints.map { $0 ?? 0 }, what: context)
        case .bool:
            // `ArrayBoolNull` keeps null as 3; a required column holds 0 and 1.
            let raw: [Int64] = try values.map { v in
                try nullCheck(v)
                switch v {
                case .bool(let b): return b ? 1 : 0
                case .null: return 3
                default: throw mismatch(v)
                }
            }
            return try ints(raw, what: context)
        case .float:
            var payload: [UInt8] = []
            payload.reserveCapacity(values.count * 4)
            for v in values {
                try nullCheck(v)
                let bits: UInt32
                switch v {
                case .float(let f): bits = f.bitPattern
                case .null: bits = 0x7FC0_00AA
                default: throw mismatch(v)
                }
                payload += Self.pack([Int64(bits)], width: 32)
            }
            return try multiply(width: values.isEmpty ? 0 : 4, count: values.count, payload: payload, what: context)
        case .double:
            var payload: [UInt8] = []
            payload.reserveCapacity(values.count * 8)
            for v in values {
                try nullCheck(v)
                let bits: UInt64
                switch v {
                case .double(let d): bits = d.bitPattern
                case .null: bits = 0x7FF8_0000_0000_00AA
                default: throw mismatch(v)
                }
                payload += Self.pack([Int64(bitPattern: bits)], width: 64)
            }
            return try multiply(width: values.isEmpty ? 0 : 8, count: values.count, payload: payload, what: context)
        case .string:
            let strings: [[UInt8]?] = try values.map { v in
                try nullCheck(v)
                switch v {
                case .string(let s): return Array(s.utf8)
                case .null: return nil
                default: throw mismatch(v)
                }
            }
            // A cluster's string leaf is always read as nullable (Realm Core's `ArrayString`
            // never clears its nullability): a width-0 leaf would read as all null, so ""
            // needs width 1 even in a required column.
            return try stringLeaf(strings, nullable: true, what: context)
        case .binary:
            let blobs: [[UInt8]?] = try values.map { v in
                try nullCheck(v)
                switch v {
                case .binary(let d): return [UInt8](d)
                case .null: return nil
                default: throw mismatch(v)
                }
            }
            return try binaryLeaf(blobs, what: context)
        case .timestamp:
            var seconds: [Int64?] = []
            var nanos: [Int64] = []
            for v in values {
                try nullCheck(v)
                switch v {
                case .timestamp(let s, let ns):
                    // Realm Core's `Timestamp` asserts that both parts have one sign.
                    guard (s >= 0 && ns >= 0) || (s <= 0 && ns <= 0), ns > -1_000_000_000, ns < 1_000_000_000 else {
                        throw RealmError.invalidInput(
                            "\(context): a timestamp of \(s) s and \(ns) ns (Realm Core needs both of one sign and |ns| < 1e9)"
                        )
                    }
                    seconds.append(s)
                    nanos.append(Int64(ns))
                case .null:
                    seconds.append(nil)
                    nanos.append(0)
                default: throw mismatch(v)
                }
            }
            let s = try nullableInts(seconds, what: "\(context) seconds")
            let ns = try ints(nanos, what: "\(context) nanoseconds")
            return try slots([.ref(s), .ref(ns)], what: context)
        case .decimal128:
            // Always the 16-byte form: Realm Core reads every width, and widens 4- and 8-byte
            // leaves itself when a value needs it.
            var payload: [UInt8] = []
            payload.reserveCapacity(values.count * 16)
            for v in values {
                try nullCheck(v)
                let (low, high): (UInt64, UInt64)
                switch v {
                case .decimal128(let l, let h): (low, high) = (l, h)
                case .null: (low, high) = CoreDecimal.nullBits
                default: throw mismatch(v)
                }
                payload += Self.pack([Int64(bitPattern: low), Int64(bitPattern: high)], width: 64)
            }
            return try multiply(width: values.isEmpty ? 0 : 16, count: values.count, payload: payload, what: context)
        case .objectId, .uuid:
            let width = type == .objectId ? 12 : 16
            let items: [Data?] = try values.map { v in
                try nullCheck(v)
                switch (v, type) {
                case (.objectId(let d), .objectId), (.uuid(let d), .uuid):
                    guard d.count == width else {
                        throw RealmError.invalidInput("\(context): a \(type.name) of \(d.count) bytes")
                    }
                    return d
                case (.null, _): return nil
                default: throw mismatch(v)
                }
            }
            return try fixedBytesLeaf(items, width: width, what: context)
        case .mixed:
            // Keys of nested collections numbered by position, unique within a list's tree.
            return try mixedLeaf(values, keyBase: Int64(values.startIndex), what: context)
        case .link, .linkList, .backlink, .typedLink:
            throw RealmError.unsupportedFeature("\(context): writing \(type.name) columns is not supported yet")
        }
    }

    /// `ArrayIntNull`: element 0 is the null value, a value no element holds. Realm Core picks
    /// the width's upper bound (or lower bound) when free, widening the array when both are taken.
    mutating func nullableInts(_ values: [Int64?], what: @autoclosure () -> String) throws -> Int {
        let present = values.compactMap { $0 }
        var width = Self.bitWidth(present)
        let taken = Set(present)
        var null: Int64?
        while null == nil {
            let (low, high): (Int64, Int64) =
                switch width {
                case 0: (0, 0)
                case 1: (0, 1)
                case 2: (0, 3)
                case 4: (0, 15)
                case 8: (Int64(Int8.min), Int64(Int8.max))
                case 16: (Int64(Int16.min), Int64(Int16.max))
                case 32: (Int64(Int32.min), Int64(Int32.max))
                default: (Int64.min, Int64.max)
                }
            if !taken.contains(high) {
                null = high
            } else if !taken.contains(low) {
                null = low
            } else if width == 64 {
                // Every 64-bit value cannot be taken: fewer than 2^24 elements in a leaf.
                var candidate = Int64.max - 1
                while taken.contains(candidate) { candidate -= 1 }
                null = candidate
            } else {
                width = width == 0 ? 1 : width * 2
            }
        }
        let n = null ?? 0
        return try ints([n] + values.map { $0 ?? n }, width: width, what: what())
    }

    /// `ArrayString`: every string ≤ 15 bytes inline (`ArrayStringShort`), ≤ 63 bytes in small
    /// blobs, longer in big blobs — the form Realm Core's leaf has after it grew to its longest
    /// string.
    mutating func stringLeaf(_ strings: [[UInt8]?], nullable: Bool, what: @autoclosure () -> String) throws -> Int {
        let longest = strings.reduce(0) { max($0, $1?.count ?? 0) }
        if longest <= 15 { return try shortStrings(strings, nullable: nullable, what: what()) }
        if longest <= 63 { return try smallBlobs(strings, terminated: true, what: what()) }
        return try bigBlobs(strings, terminated: true, what: what())
    }

    /// `ArrayStringShort` (strings up to 63 bytes: leaves hold up to 15, a spec's names and a
    /// group's table names up to 63).
    mutating func shortStrings(_ strings: [[UInt8]?], nullable: Bool, what: @autoclosure () -> String) throws -> Int {
        let longest = strings.reduce(0) { max($0, $1?.count ?? 0) }
        guard longest <= 63 else {
            throw RealmError.invalidInput("\(what()): a name of \(longest) bytes (Realm allows 63)")
        }
        // Width: 0 when every element is the empty value (null or ""), else the power of
        // two above the longest + 1 (Realm Core's `round_up`: 1, 2, 4, 8, 16).
        let allEmpty = strings.allSatisfy { nullable ? $0 == nil : ($0?.isEmpty ?? true) }
        if allEmpty { return try multiply(width: 0, count: strings.count, payload: [], what: what()) }
        let needed = longest + 1
        let width = needed <= 2 ? needed : 1 << (Int.bitWidth - (needed - 1).leadingZeroBitCount)
        var payload: [UInt8] = []
        payload.reserveCapacity(width * strings.count)
        for s in strings {
            if let s {
                payload += s
                payload += repeatElement(0, count: width - 1 - s.count)
                payload.append(UInt8(width - 1 - s.count))
            } else {
                payload += repeatElement(0, count: width - 1)
                payload.append(UInt8(width))
            }
        }
        return try multiply(width: width, count: strings.count, payload: payload, what: what())
    }

    /// `ArrayBinary`: small blobs while every value is ≤ 64 bytes, else big blobs.
    mutating func binaryLeaf(_ blobs: [[UInt8]?], what: @autoclosure () -> String) throws -> Int {
        let longest = blobs.reduce(0) { max($0, $1?.count ?? 0) }
        if longest <= 64 { return try smallBlobs(blobs, terminated: false, what: what()) }
        return try bigBlobs(blobs, terminated: false, what: what())
    }

    /// `ArraySmallBlobs`: end offsets, one blob, and a null flag per element (always present).
    /// A string is stored with its terminating 0, a null string too.
    mutating func smallBlobs(_ items: [[UInt8]?], terminated: Bool, what: @autoclosure () -> String) throws -> Int {
        var blob: [UInt8] = []
        var ends: [Int64] = []
        var nulls: [Int64] = []
        for item in items {
            blob += item ?? []
            if terminated { blob.append(0) }
            ends.append(Int64(blob.count))
            nulls.append(item == nil ? 1 : 0)
        }
        let offsetsRef = try ints(ends, what: "\(what()) blob offsets")
        let blobRef = try self.blob(blob, what: "\(what()) blob")
        let nullsRef = try ints(nulls, what: "\(what()) blob nulls")
        return try slots([.ref(offsetsRef), .ref(blobRef), .ref(nullsRef)], what: what())
    }

    /// `ArrayBigBlobs` (context flag set): a ref per element to its own blob, 0 for null.
    mutating func bigBlobs(_ items: [[UInt8]?], terminated: Bool, what: @autoclosure () -> String) throws -> Int {
        var refs: [CoreSlot] = []
        for item in items {
            guard let item else {
                refs.append(.null)
                continue
            }
            guard item.count < Self.maxCount else {
                throw RealmError.unsupportedFeature(
                    "\(what()): a value of \(item.count) bytes (Realm stores values over 16 MB in chunks, which is not written yet)"
                )
            }
            refs.append(.ref(try blob(terminated ? item + [0] : item, what: "\(what()) blob")))
        }
        return try slots(refs, context: true, what: what())
    }

    /// `ArrayFixedBytes`: blocks of a null-bit byte and up to 8 values (byte count in the
    /// header, width 1). A null holds Realm Core's debugging sentinel.
    mutating func fixedBytesLeaf(_ items: [Data?], width: Int, what: @autoclosure () -> String) throws -> Int {
        let sentinel: [UInt8] =
            width == 12
            ? [0xDE, 0xAD, 0xDE, 0xAD, 0xDE, 0xAD, 0xDE, 0xAD, 0xDE, 0xAD, 0xDE, 0xAD]
            : [0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF, 0xDE, 0xAD, 0xBE, 0xEF]
        var payload: [UInt8] = []
        payload.reserveCapacity(items.count * width + (items.count + 7) / 8)
        var block = 0
        while block * 8 < items.count {
            let chunk = items[(block * 8)..<min(items.count, block * 8 + 8)]
            var nullBits: UInt8 = 0
            for (i, item) in chunk.enumerated() where item == nil { nullBits |= 1 << UInt8(i) }
            payload.append(nullBits)
            for item in chunk { payload += item.map { [UInt8]($0) } ?? sentinel }
            block += 1
        }
        return try multiply(width: payload.isEmpty ? 0 : 1, count: payload.count, payload: payload, what: what())
    }
}
