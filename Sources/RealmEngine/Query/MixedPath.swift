/// A step into a Mixed value in a key path: `mixed[0]`, `mixed[LAST]`, `mixed['k']` (also
/// `mixed.k`), `mixed[*]`. A step that finds nothing there (an index past the end, a missing
/// key, a list where a dictionary was wanted, a scalar) reads nil, as in Realm Core; `[*]`
/// reaches every element of a list or every value of a dictionary.
enum MixedStep: Equatable {
    case index(Int)
    case last
    case key(String)
    case all

    /// The values one Mixed value leads to through this step.
    func apply(to value: Value) -> [Value] {
        switch (self, value) {
        case (.index(let i), .list(let items)): return [i < items.count ? items[i] : .null]
        case (.last, .list(let items)): return [items.last ?? .null]
        case (.key(let k), .map(let entries)): return [entries[k] ?? .null]
        case (.all, .list(let items)): return items
        case (.all, .map): return value.sortedEntries.map(\.value)
        case (.all, _): return []
        default: return [.null]
        }
    }

    /// The values `value` leads to through `steps` (every one a `.mixed` step; others are skipped).
    static func apply(_ steps: ArraySlice<BoundPath.Step>, to value: Value) -> [Value] {
        var values = [value]
        for case .mixed(let step) in steps {
            values = values.flatMap { step.apply(to: $0) }
        }
        return values
    }
}

/// A bracketed position in a key path (`[0]`, `[FIRST]`, `[LAST]`, `[*]`), which only a Mixed
/// value takes.
enum PathPosition: Equatable {
    case index(Int)
    case last
    case all

    var text: String {
        switch self {
        case .index(let i): "[\(i)]"
        case .last: "[LAST]"
        case .all: "[*]"
        }
    }
}

extension BoundPath.Step {
    /// Whether this is a step into a Mixed value.
    var isMixed: Bool { if case .mixed = self { true } else { false } }
}
