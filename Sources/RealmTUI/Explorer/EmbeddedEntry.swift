import RealmEngine

/// An embedded object at its place in its parent, as data: what `u` needs to put one back after
/// it was deleted (or take out again one it put back). An embedded object cannot be made on its
/// own, only inside its parent at a place, so the place is part of the record.
public struct EmbeddedEntry: Sendable, Equatable {
    /// Where in its parent an embedded object is held.
    public enum Slot: Sendable, Equatable {
        /// The to-one property itself.
        case toOne
        /// A position in a list.
        case index(Int)
        /// A key of a dictionary.
        case key(String)
    }

    /// The parent's class and key (an embedded parent keeps its key while it lives).
    public var parentClass: String
    public var parentKey: ObjectKey
    /// The parent's property holding the object.
    public var property: String
    public var slot: Slot
    /// The embedded object's class.
    public var className: String
    /// Its values: a dictionary of its fields, nested embedded objects as nested dictionaries
    /// (lists and dictionaries of them as lists and dictionaries of dictionaries).
    public var object: Value
    /// The parent's property without the object (a dictionary without its key): what an undo
    /// compares first, refusing when someone changed it since.
    public var siblings: Value

    /// How the place reads in a message: `Person#0.previous[1]`, `Person#0.places['work']`.
    var placeText: String {
        let base = "\(parentClass)#\(parentKey.rawValue).\(property)"
        switch slot {
        case .toOne: return base
        case .index(let index): return "\(base)[\(index)]"
        case .key(let key): return "\(base)['\(key)']"
        }
    }
}
