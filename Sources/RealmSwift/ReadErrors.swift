import Foundation

// Reading a damaged file through the typed API.
//
// Getters and subscripts cannot throw (RealmSwift's signatures), but an error from the file must
// never pass for a plausible answer. So, as the dynamic core's collections do, a getter that
// cannot read the file answers its type's empty value *and* records the reason where the caller
// can see it: `Results.error` and `List.error` for collections (also delivered to observers as
// `.error`), `Object.readError` for properties. Code reading files it does not trust uses the
// throwing variants instead: `element(at:)`, `checkedCount()`, `checkedValue(forKey:)`, `checkedMin`,
// `checkedMax`, `checkedSum`, `checkedAverage`.
//
// Misuse of the API (a wrong thread, a deleted object, an index out of range, a misspelled
// property) is not a read error: it stops with a message, as in RealmSwift.

extension RealmError {
    /// Whether the error is a misuse of the API (stops non-throwing calls with a message) rather
    /// than a failure to read the file or its environment (recorded next to an empty answer).
    var isMisuse: Bool {
        switch self {
        case .wrongThread, .closed, .invalidatedObject, .noSuchClass, .noSuchProperty, .typeMismatch, .indexOutOfRange,
            .query, .notInWriteTransaction, .alreadyInWriteTransaction, .invalidSchema, .schemaMismatch, .missingValue:
            return true
        default:
            return false
        }
    }
}

/// The value a property of `property`'s type holds when empty: what a getter answers, next to a
/// recorded error, when the file cannot be read.
func emptyValue(of property: Property) -> Value {
    if property.isList || property.type == .linkingObjects { return .list([]) }
    if property.isOptional || property.type == .object { return .null }
    return emptyElement(property.type) ?? .null
}

/// The zero of a scalar type (nil for links).
func emptyElement(_ type: PropertyType) -> Value? {
    switch type {
    case .bool: return .bool(false)
    case .int, .int8, .int16, .int32: return .int(0)
    case .float: return .float(0)
    case .double: return .double(0)
    case .string: return .string("")
    case .date: return Date._rlmZero._rlmValue
    case .data: return .data(Data())
    case .objectId: return ObjectId._rlmZero._rlmValue
    case .uuid: return UUID._rlmZero._rlmValue
    case .decimal128: return Decimal128._rlmZero._rlmValue
    case .object, .linkingObjects, .mixed: return nil
    }
}

extension _RealmElement {
    /// The element a list answers, next to its recorded error, when it cannot read the file:
    /// a scalar's zero (an enum's first case), or an unmanaged object with its class's defaults.
    static func _rlmEmpty() -> Self? {
        if let type = _rlmObjectType { return type.init() as? Self }
        // An optional element (`List<Int?>`): nil.
        if let optional = Self.self as? any ExpressibleByNilLiteral.Type {
            return optional.init(nilLiteral: ()) as? Self
        }
        return (Self.self as? any _RealmScalar.Type).flatMap { $0._rlmZero as? Self }
    }
}

/// Why a list element at `place` could not be read as `type`: a link whose object cannot be
/// read is a damaged file (a consistent file holds no link to a missing object); any other
/// value is one the type cannot represent (`unrepresentable`).
func unreadableElement(_ value: Value, as type: Any.Type, at place: String, in realm: Realm) -> RealmError {
    if case .link(let key) = value {
        return .corruptFile(
            path: realm.dynamicRealm.path, offset: 0,
            reason: "\(place) links to object \(key.rawValue), which cannot be read")
    }
    return unrepresentable(value, as: type, at: place)
}

/// Why a read answers an empty value when the file holds `value` where `type` is read: a raw
/// value no case of an enum names, written by another program (`realmtui write`, an import) or
/// another version of the app. Recorded like a damaged file's error, never a stop.
func unrepresentable(_ value: Value, as type: Any.Type, at place: String) -> RealmError {
    let shown: String
    if case .string(let text) = value {
        shown = String(reflecting: text.count > 60 ? text.prefix(60) + "…" : text)
    } else {
        shown = value.description
    }
    return .invalidInput("\(place): the file holds \(shown), which is not a \(type)")
}

extension Results {
    /// Why the last read through a non-throwing member (`count`, a subscript, iteration, a
    /// notification) could not read the file, or nil after one that could. A non-nil error
    /// means the answer that came with it (0, an empty object) is not the data.
    public var error: RealmError? { owner.reading { dynamicResults.error } }

    /// The object at `position`; throws when the file cannot be read there (a damaged file)
    /// or the position is out of range, instead of stopping or answering an empty object.
    public func element(at position: Int) throws -> Element {
        owner.verifyThread()
        return Element._rlmMake(try owner.reading { try dynamicResults.object(at: position) }, realm: owner)
    }

    /// The number of objects; throws when the file cannot be read instead of answering 0.
    public func checkedCount() throws -> Int {
        owner.verifyThread()
        return try owner.reading { try dynamicResults.checkedCount() }
    }
}

extension List {
    /// Why the last `count` or subscript could not read the list from the file, or nil after one
    /// that could (an unmanaged list: always nil).
    public var error: RealmError? {
        guard case .managed(let list, let realm) = storage else { return nil }
        return realm.reading { list.error }
    }

    /// The element at `position`; throws when the file cannot be read (a damaged file) or the
    /// position is out of range, instead of stopping or answering an empty value.
    public func element(at position: Int) throws -> Element {
        switch storage {
        case .unmanaged(let items):
            guard items.indices.contains(position) else {
                throw RealmError.indexOutOfRange(index: position, count: items.count)
            }
            return items[position]
        case .managed(let list, let realm):
            let v = try realm.reading { try list.value(at: position) }
            if let nested = Self.nestedCollection(v, list, realm, at: position) { return nested }
            guard let e = Element._rlmRead(v.namingLinkClass(for: Element.self, list.property), realm: realm) else {
                throw unreadableElement(
                    v, as: Element.self, at: "\(list.ownerClassName).\(list.property.name)[\(position)]", in: realm)
            }
            return e
        case .inMixed(let slot, let realm):
            realm.verifyThread()
            return try Self.nestedElement(slot, realm, at: position)
        }
    }

    /// The number of elements; throws when the file cannot be read instead of answering 0.
    public func checkedCount() throws -> Int {
        switch storage {
        case .unmanaged(let items): return items.count
        case .managed(let list, let realm): return try realm.reading { try list.elements().count }
        case .inMixed(let slot, let realm): return try realm.reading { try slot.list().count }
        }
    }
}

extension Object {
    /// Records a failure to read the object's file in `readError` (the first one stays).
    func recordReadError(_ error: RealmError) {
        if readError == nil { readError = error }
    }

    /// `value(forKey:)` (an enum as itself, not its raw value) that throws when the file cannot
    /// be read (a damaged file) instead of answering the property type's empty value with
    /// `readError` set.
    /// A stored value the property's type cannot represent (an enum's unknown raw value)
    /// throws too.
    public func checkedValue(forKey key: String) throws -> Any? {
        if let accessor, let realm {
            _ = try realm.reading { try accessor.value(forKey: key) }
        }
        let earlier = readError
        readError = nil
        let answer = typedValue(forKey: key)
        let failure = readError
        readError = earlier ?? failure
        if let failure { throw failure }
        return answer
    }
}
