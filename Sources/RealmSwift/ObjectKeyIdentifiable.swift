/// Gives an `Object` subclass the identity `Identifiable` asks for, as RealmSwift's: declare
/// `class Dog: Object, ObjectKeyIdentifiable { … }` and `dog.id` is stable.
///
/// A managed object's `id` is the same for every instance that refers to the same object (for
/// which `isSameObject(as:)` is true); an unmanaged object's is its instance's identity.
public protocol ObjectKeyIdentifiable: Identifiable {
    /// The stable identity of the object.
    var id: UInt64 { get }
}

extension ObjectKeyIdentifiable where Self: Object {
    /// A stable identifier for this object: from its class and object key when managed (the key
    /// XORed with a value fixed per class, so two objects of one class never share one), from
    /// the instance's address when not.
    public var id: UInt64 {
        guard let classIndex = managed?.classIndex, let key = managed?.key else {
            return UInt64(UInt(bitPattern: ObjectIdentifier(self).hashValue))
        }
        return (UInt64(truncatingIfNeeded: classIndex) &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(bitPattern: key.rawValue)
    }
}
