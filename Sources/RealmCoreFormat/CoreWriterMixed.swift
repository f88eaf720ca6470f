import Foundation
import RealmEngine

/// Mixed values (`ArrayMixed`, Realm Core's `array_mixed.cpp`): a leaf is a node of six refs —
/// the composite array (per element: type + 1 in bits 0–4, the payload array's slot in bits
/// 5–7, and the value or its index in that array from bit 8; 0 for null), then the payload
/// arrays, each written only when a value needs it: 64-bit ints (ints outside 32 bits, floats,
/// doubles), int pairs (timestamps, decimals, typed links), strings (strings, binaries,
/// ObjectIds, UUIDs), refs (nested lists and dictionaries) and the keys Realm Core gives nested collections.
extension CoreNodeWriter {
    /// Realm Core's `DataType` of each Mixed value kind.
    private enum MixedType: Int64 {
        case int = 0
        case bool = 1
        case string = 2
        case binary = 4
        case timestamp = 8
        case float = 9
        case double = 10
        case decimal = 11
        case objectId = 15
        case typedLink = 16
        case uuid = 17
        case list = 19
        case dictionary = 21
    }

    /// Payload array slots in the leaf.
    private static let intsSlot: Int64 = 1, pairsSlot: Int64 = 2, stringsSlot: Int64 = 3, refsSlot: Int64 = 4

    /// Writes a leaf of Mixed `values`. Typed links carry the writer's table keys; a nested
    /// list is written as its own B+tree of Mixed. `keyBase` numbers the nested collections of
    /// this leaf (Realm Core keys them within their tree or leaf, with any unique non-zero
    /// values).
    mutating func mixedLeaf(
        _ values: ArraySlice<CoreValue>, keyBase: Int64, depth: Int = 0,
        what: @autoclosure () -> String
    ) throws -> Int {
        let context = what()
        guard depth <= 100 else {
            throw RealmError.invalidInput("\(context): Mixed collections nested over 100 levels deep")
        }
        var composite: [Int64] = []
        composite.reserveCapacity(values.count)
        var ints: [Int64] = []
        var pairs: [Int64] = []
        var strings: [[UInt8]?] = []
        var refs: [CoreSlot] = []
        var keys: [Int64] = []
        func entry(_ type: MixedType, slot: Int64, index: Int) -> Int64 {
            Int64(index) << 8 | slot << 5 | (type.rawValue + 1)
        }
        for (i, v) in values.enumerated() {
            var key: Int64 = 0
            switch v {
            case .null:
                composite.append(0)
            case .int(let n):
                if n >= Int64(Int32.min), n <= Int64(Int32.max) {
                    composite.append(n << 8 | (MixedType.int.rawValue + 1))
                } else {
                    composite.append(entry(.int, slot: Self.intsSlot, index: ints.count))
                    ints.append(n)
                }
            case .bool(let b):
                composite.append((b ? 1 : 0) << 8 | (MixedType.bool.rawValue + 1))
            case .float(let f):
                composite.append(entry(.float, slot: Self.intsSlot, index: ints.count))
                ints.append(Int64(f.bitPattern))
            case .double(let d):
                composite.append(entry(.double, slot: Self.intsSlot, index: ints.count))
                ints.append(Int64(bitPattern: d.bitPattern))
            case .string(let s):
                composite.append(entry(.string, slot: Self.stringsSlot, index: strings.count))
                strings.append(Array(s.utf8))
            case .binary(let d):
                composite.append(entry(.binary, slot: Self.stringsSlot, index: strings.count))
                strings.append([UInt8](d))
            case .objectId(let d), .uuid(let d):
                let isId: Bool = if case .objectId = v { true } else { false }
                guard d.count == (isId ? 12 : 16) else {
                    throw RealmError.invalidInput("\(context): a Mixed \(v.typeName) of \(d.count) bytes")
                }
                composite.append(entry(isId ? .objectId : .uuid, slot: Self.stringsSlot, index: strings.count))
                strings.append([UInt8](d))
            case .timestamp(let s, let ns):
                guard (s >= 0 && ns >= 0) || (s <= 0 && ns <= 0), ns > -1_000_000_000, ns < 1_000_000_000 else {
                    throw RealmError.invalidInput(
                        "\(context): a timestamp of \(s) s and \(ns) ns (Realm Core needs both of one sign and |ns| < 1e9)"
                    )
                }
                composite.append(entry(.timestamp, slot: Self.pairsSlot, index: pairs.count / 2))
                pairs += [s, Int64(ns)]
            case .decimal128(let low, let high):
                composite.append(entry(.decimal, slot: Self.pairsSlot, index: pairs.count / 2))
                pairs += [Int64(bitPattern: low), Int64(bitPattern: high)]
            case .typedLink(let table, let k), .link(let table, let k):
                guard table >= 0, k >= 0 else {
                    throw RealmError.invalidInput("\(context): a Mixed link to object \(k) of table \(table)")
                }
                composite.append(entry(.typedLink, slot: Self.pairsSlot, index: pairs.count / 2))
                pairs += [table, k]
            case .list(let items):
                composite.append(entry(.list, slot: Self.refsSlot, index: refs.count))
                refs.append(items.isEmpty ? .null : .ref(try mixedTree(items, depth: depth + 1, what: context)))
                key = keyBase + Int64(i) + 1
            case .dictionary(let entries):
                composite.append(entry(.dictionary, slot: Self.refsSlot, index: refs.count))
                refs.append(
                    entries.isEmpty
                        ? .null : .ref(try dictionary(entries, linkTable: nil, depth: depth + 1, what: context)))
                key = keyBase + Int64(i) + 1
            case .set:
                throw RealmError.invalidInput("\(context): a set inside a Mixed value (Realm has none)")
            }
            keys.append(key)
        }
        var top: [CoreSlot] = [
            .ref(try self.ints(composite, what: "\(context) Mixed types")), .null, .null, .null, .null, .null,
        ]
        if !ints.isEmpty { top[1] = .ref(try self.ints(ints, what: "\(context) Mixed ints")) }
        if !pairs.isEmpty { top[2] = .ref(try self.ints(pairs, what: "\(context) Mixed pairs")) }
        if !strings.isEmpty { top[3] = .ref(try stringLeaf(strings, nullable: true, what: "\(context) Mixed strings")) }
        if !refs.isEmpty {
            top[4] = .ref(try slots(refs, what: "\(context) Mixed collections"))
            top[5] = .ref(try self.ints(keys, what: "\(context) Mixed collection keys"))
        }
        return try slots(top, what: "\(context) Mixed leaf")
    }

    /// A list nested in a Mixed value (or a list of Mixed): a B+tree of Mixed leaves.
    mutating func mixedTree(_ items: [CoreValue], depth: Int = 0, what: @autoclosure () -> String) throws -> Int {
        let context = what()
        return try bPlusTree(count: items.count, what: context) { w, range in
            try w.mixedLeaf(items[range], keyBase: Int64(range.lowerBound), depth: depth, what: context)
        }
    }
}

extension RealmCoreWriter {
    /// The typed links in Mixed values (nested lists included), in order.
    static func typedLinks(in value: CoreValue, into out: inout [(table: Int64, key: Int64)]) {
        switch value {
        case .typedLink(let t, let k): out.append((t, k))
        case .list(let items), .set(let items):
            for item in items { typedLinks(in: item, into: &out) }
        case .dictionary(let entries):
            for e in entries { typedLinks(in: e.value, into: &out) }
        default: break
        }
    }

    /// Gives each table that Mixed columns link to a backlink column per linking column (Realm
    /// Core's `find_or_add_backlink_column` adds one when a typed link is first set) and fills
    /// it. A Mixed column itself names no opposite table: it links anywhere.
    static func connectMixedLinks(_ writers: inout [CoreTableWriter], name: String) throws {
        var objectKeys: [Int: Set<Int64>] = [:]
        for o in writers.indices {
            let origin = writers[o].table
            for (c, column) in origin.columns.enumerated() where column.type == .mixed {
                var byTarget: [Int64: CoreBacklinkColumn] = [:]
                for object in origin.objects {
                    var links: [(table: Int64, key: Int64)] = []
                    typedLinks(in: object.values[c], into: &links)
                    for link in links {
                        guard link.table >= 0, link.table < Int64(writers.count) else {
                            throw RealmError.invalidInput(
                                "\(name): \(origin.name).\(column.name) of object \(object.key) links to table \(link.table), which is not written"
                            )
                        }
                        let target = writers[Int(link.table)].table
                        guard !target.isEmbedded else {
                            throw RealmError.invalidInput(
                                "\(name): \(origin.name).\(column.name) of object \(object.key) is a Mixed link to the embedded \(target.name) (Realm links embedded objects only from their parent's link properties)"
                            )
                        }
                        if objectKeys[Int(link.table)] == nil {
                            objectKeys[Int(link.table)] = Set(target.objects.map(\.key))
                        }
                        guard objectKeys[Int(link.table)]?.contains(link.key) == true else {
                            throw RealmError.invalidInput(
                                "\(name): \(origin.name).\(column.name) of object \(object.key) links to object \(link.key) of \(target.name), which does not exist"
                            )
                        }
                        byTarget[
                            link.table,
                            default: CoreBacklinkColumn(
                                originTable: writers[o].key, originColumn: writers[o].columnKey(c))
                        ]
                        .origins[link.key, default: []].append(object.key)
                    }
                }
                for (t, var backlink) in byTarget.sorted(by: { $0.key < $1.key }) {
                    for k in backlink.origins.keys { backlink.origins[k]?.sort() }
                    writers[Int(t)].backlinks.append(backlink)
                }
            }
        }
    }
}
