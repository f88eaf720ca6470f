import RealmEngine

/// Several embedded objects deleted in one write (`:delete` on a table of them), as data: what
/// one `u` needs to put them all back at their places (or take them out again after that).
///
/// Each object is an `EmbeddedEntry` recorded as it was taken out, in that order, so putting
/// them back newest first finds each place as its entry saw it. The entries' own checks compare
/// links, and a put-back object gets a new key, so the group is checked as a whole instead: the
/// properties it touched must hold what the delete (or the undo) left there, by the embedded
/// objects' values rather than their keys.
public struct EmbeddedGroup: Sendable, Equatable {
    /// A parent's property holding some of the objects.
    public struct Place: Sendable, Equatable {
        public var parentClass: String
        public var parentKey: ObjectKey
        public var property: String
        /// The property before the delete, each embedded object in it as its values.
        public var before: Value
        /// The property after the delete, the same way.
        public var after: Value
    }

    /// The objects' class.
    public var className: String
    /// The objects, in the order they were taken out.
    public var entries: [EmbeddedEntry]
    /// Every parent property they were taken out of.
    public var places: [Place]

    /// `3 Address objects`.
    var objectsText: String {
        "\(entries.count) \(className) object\(entries.count == 1 ? "" : "s")"
    }
}
