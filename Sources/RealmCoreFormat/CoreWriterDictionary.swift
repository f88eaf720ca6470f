import Foundation
import RealmEngine

/// Dictionaries, format 24 (Realm Core's `Dictionary`, `dictionary.cpp`): a node of two refs,
/// a B+tree of the keys (strings, sorted by unsigned bytes, as `std::lower_bound` over
/// `StringData` finds them) and a B+tree of Mixed values in the same order. (Formats 21–23
/// kept a cluster tree keyed by key hashes; Realm Core converts those when it opens them.)
/// A dictionary of links holds typed links to the column's target table.
extension CoreNodeWriter {
    /// Writes a non-empty dictionary; `linkTable` is the target table of a link dictionary,
    /// whose values are `.link` or `.null`.
    mutating func dictionary(
        _ entries: [CoreDictionaryEntry], linkTable: Int64?, depth: Int = 0,
        what: @autoclosure () -> String
    ) throws -> Int {
        let context = what()
        let sorted = entries.sorted { CoreDictionaryOrder.less($0.key, $1.key) }
        for (a, b) in zip(sorted, sorted.dropFirst()) where a.key == b.key {
            throw RealmError.invalidInput("\(context): a dictionary holds the key '\(a.key)' twice")
        }
        let keys: [CoreValue] = sorted.map { .string($0.key) }
        let values: [CoreValue] = try sorted.map { e in
            guard let linkTable else { return e.value }
            switch e.value {
            case .null: return .null
            case .link(_, let k) where k >= 0: return .typedLink(tableKey: linkTable, key: k)
            default: throw RealmError.invalidInput("\(context): a dictionary of links cannot hold \(e.value.typeName)")
            }
        }
        let keysRef = try bPlusTree(count: keys.count, what: "\(context) dictionary keys") { w, range in
            try w.leaf(keys[range], type: .string, nullable: false, what: "\(context) dictionary keys")
        }
        let valuesRef = try mixedTree(values, depth: depth, what: "\(context) dictionary values")
        return try slots([.ref(keysRef), .ref(valuesRef)], what: "\(context) dictionary")
    }
}

/// The order of a dictionary's keys: `StringData`'s `operator<` (unsigned bytes, a prefix first).
enum CoreDictionaryOrder {
    static func less(_ a: String, _ b: String) -> Bool {
        var x = a.utf8.makeIterator()
        var y = b.utf8.makeIterator()
        while true {
            switch (x.next(), y.next()) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let p?, let q?) where p != q: return p < q
            default: continue
            }
        }
    }
}

extension CoreTableWriter {
    /// A dictionary column's leaf: per object a ref to its dictionary, 0 when empty.
    func dictionaryColumn(
        _ values: [CoreValue], _ column: RealmCoreWriterTable.Column, columnIndex: Int, what: String,
        _ w: inout CoreNodeWriter
    ) throws -> Int {
        var linkTable: Int64?
        if column.type == .link {
            guard let target = linkOpposites[columnIndex]?.table else {
                throw RealmError.internalError("\(what): a dictionary of links without its target table")
            }
            linkTable = target
        }
        var refs: [CoreSlot] = []
        refs.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .null: refs.append(.null)
            case .dictionary(let entries):
                refs.append(entries.isEmpty ? .null : .ref(try w.dictionary(entries, linkTable: linkTable, what: what)))
            default: throw RealmError.invalidInput("\(what): a dictionary column cannot hold \(value.typeName)")
            }
        }
        return try w.slots(refs, what: "\(what) dictionaries")
    }
}
