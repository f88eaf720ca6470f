/// The parts of RealmSwift's `SortDescriptor` API beyond its two properties: a reversed copy,
/// its description and creation from a string literal (a key path, ascending).
extension SortDescriptor: CustomStringConvertible, ExpressibleByStringLiteral {
    /// A copy sorting by the same key path in the other direction.
    public func reversed() -> SortDescriptor {
        SortDescriptor(keyPath: keyPath, ascending: !ascending)
    }

    /// `SortDescriptor(keyPath: name, direction: ascending)`, as RealmSwift prints it.
    public var description: String {
        "SortDescriptor(keyPath: \(keyPath), direction: \(ascending ? "ascending" : "descending"))"
    }

    /// An ascending sort by the key path in the literal (`let s: SortDescriptor = "age"`).
    public init(stringLiteral keyPath: String) {
        self.init(keyPath: keyPath)
    }
}
