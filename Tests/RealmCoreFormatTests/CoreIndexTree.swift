import Foundation

/// Reads the search indexes of a Realm Core file's tables as text, node by node, so a test can
/// compare the index this project's writer built with the one Realm Core built for the same
/// data. Only for files the tests made: a malformed file is an error, never a guess.
struct CoreIndexTree {
    struct Failure: Error, CustomStringConvertible { let description: String }

    let bytes: [UInt8]

    init(path: String) throws {
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A node: its flags, element width and elements.
    struct Node {
        let inner: Bool, hasRefs: Bool, context: Bool
        let width: Int
        let values: [Int64]
    }

    func node(_ ref: Int64) throws -> Node {
        let r = Int(ref)
        guard r >= 24, r % 8 == 0, r + 8 <= bytes.count else { throw Failure(description: "bad ref \(ref)") }
        let flags = bytes[r + 4]
        let width = [0, 1, 2, 4, 8, 16, 32, 64][Int(flags & 7)]
        guard (flags >> 3) & 3 == 0 else { throw Failure(description: "node \(ref) is not an integer array") }
        let count = Int(bytes[r + 5]) << 16 | Int(bytes[r + 6]) << 8 | Int(bytes[r + 7])
        guard r + 8 + (count * width + 7) / 8 <= bytes.count else {
            throw Failure(description: "node \(ref) runs past the file")
        }
        var values: [Int64] = []
        for i in 0..<count {
            if width < 8 {
                let bit = i * width
                values.append(Int64(bytes[r + 8 + bit / 8] >> UInt8(bit % 8)) & ((1 << Int64(width)) - 1))
            } else {
                var u: UInt64 = 0
                for b in 0..<(width / 8) { u |= UInt64(bytes[r + 8 + i * width / 8 + b]) << UInt64(8 * b) }
                let shift = UInt64(64 - width)
                values.append(Int64(bitPattern: u << shift) >> Int64(shift))
            }
        }
        return Node(
            inner: flags & 0x80 != 0, hasRefs: flags & 0x40 != 0, context: flags & 0x20 != 0, width: width,
            values: values)
    }

    /// The search index refs of table `position` (in group order), by column leaf index.
    func indexRefs(table position: Int) throws -> [Int64] {
        let slot = Int(bytes[23] & 1) * 8
        var top: Int64 = 0
        for b in 0..<8 { top |= Int64(bytes[slot + b]) << Int64(8 * b) }
        let group = try node(top)
        let tables = try node(group.values[1])
        let table = try node(tables.values[position])
        guard table.values[4] != 0 else { return [] }
        return try node(table.values[4]).values
    }

    /// The keys of a B+tree list at `ref`, leaves in order (compact or general inner nodes:
    /// either way the children are the elements between the first and the last).
    func listKeys(_ ref: Int64) throws -> [Int64] {
        let n = try node(ref)
        guard n.inner else { return n.values }
        guard n.values.count >= 3 else { throw Failure(description: "B+tree node \(ref) has no children") }
        return try n.values.dropFirst().dropLast().flatMap { try listKeys($0) }
    }

    /// The index at `ref` as text: `I{…}` an inner B-tree node, `L{…}` a leaf, each entry
    /// `key:value` with the key array's width; values `k5` (one object), `R[…]` (a list of
    /// object keys, in a leaf or a B+tree), `S…` (a sub-index).
    func describe(_ ref: Int64) throws -> String {
        let n = try node(ref)
        guard n.context, n.hasRefs, let keysRef = n.values.first else {
            throw Failure(description: "\(ref) is not an index node")
        }
        let keys = try node(keysRef)
        guard keys.values.count + 1 == n.values.count else {
            throw Failure(description: "index node \(ref): keys and entries differ in count")
        }
        var parts: [String] = []
        for (i, key) in keys.values.enumerated() {
            let v = n.values[i + 1]
            let entry: String
            if n.inner {
                entry = try describe(v)
            } else if v & 1 == 1 {
                entry = "k\(v >> 1)"
            } else {
                let target = try node(v)
                if target.context {
                    entry = "S" + (try describe(v))
                } else {
                    // A list's B+tree shape depends on how it grew (Realm Core's `make` adds
                    // each object with a default value, indexed, then sets it: a list can grow
                    // past 1000 and shrink again); a lookup reads the keys it holds.
                    entry = "R[\(try listKeys(v).map(String.init).joined(separator: ","))]"
                }
            }
            parts.append("\(key):\(entry)")
        }
        return (n.inner ? "I" : "L") + "\(keys.width){" + parts.joined(separator: " ") + "}"
    }
}
