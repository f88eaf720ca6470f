/// The base class of every model class, as RealmSwift names it: code that takes any managed or
/// unmanaged model object (`func describe(_ object: ObjectBase)`, `ObjectChange<ObjectBase>`)
/// takes an `Object`, an `EmbeddedObject` or a `DynamicObject`.
///
/// In RealmSwift it is the Objective-C class all of them inherit from; here `Object` is that
/// class (`EmbeddedObject` and `DynamicObject` are its subclasses), so `ObjectBase` names it.
public typealias ObjectBase = Object
