extension Realm {
    /// How many objects of `className` the file holds, embedded classes included — whose
    /// objects `objects(_:)` refuses to list, but which a description of the file counts.
    ///
    /// - Throws: `noSuchClass`; the read error of a damaged file.
    public func storedObjectCount(_ className: String) throws -> Int {
        try checkThread()
        return try readable.count(classIndex: try classIndex(className))
    }
}
