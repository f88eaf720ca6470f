extension PropertyChange {
    /// A change of `name` (a property, or a key path through links such as `"owner.name"`) from
    /// `oldValue` to `newValue`, for layers that compute changes of their own (the typed API's
    /// key-path observation of objects).
    public init(name: String, old oldValue: Value?, new newValue: Value?) {
        self.init(name: name, oldValue: oldValue, newValue: newValue)
    }
}
