extension Value {
    /// The object keys a link value names: a link's, a list's or set's links, a dictionary's
    /// link values (nil entries and other values left out). Empty for any other value.
    var linkedKeys: [ObjectKey] {
        switch self {
        case .link(let key): [key]
        case .list(let items): items.compactMap { if case .link(let key) = $0 { key } else { nil } }
        case .map(let entries): entries.values.compactMap { if case .link(let key) = $0 { key } else { nil } }
        default: []
        }
    }
}
