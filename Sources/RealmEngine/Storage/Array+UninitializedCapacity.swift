extension Array {
    /// `init(unsafeUninitializedCapacity:initializingWith:)`, except that a capacity of 0 never
    /// touches the standard library's shared empty-array storage.
    ///
    /// Why: with capacity 0 the standard library's initializer (Swift 6.3) stores the count — 0 —
    /// into the one global `_swiftEmptyArrayStorage` that every empty array shares, while other
    /// threads read the count of their own empty arrays from it. Same value, so harmless on this
    /// hardware, but a data race all the same, and ThreadSanitizer reports it on every parallel
    /// test run (earlier stdlib fixes of this kind: swiftlang/swift#14778, #21624, #27808). With
    /// capacity 0, `body` runs on an empty buffer and the result is a plain `[]`.
    init(
        uninitializedCapacity capacity: Int,
        initializingWith body: (inout UnsafeMutableBufferPointer<Element>, inout Int) throws -> Void
    ) rethrows {
        guard capacity > 0 else {
            var empty = UnsafeMutableBufferPointer<Element>(start: nil, count: 0)
            var initialized = 0
            try body(&empty, &initialized)
            self = []
            return
        }
        try self.init(unsafeUninitializedCapacity: capacity, initializingWith: body)
    }
}
