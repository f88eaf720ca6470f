import Foundation

/// What the typed layer knows about one `Object` subclass: its schema, discovered once from a
/// prototype instance through `Mirror` (no Objective-C runtime), and where its properties'
/// storage is in an instance.
final class ClassInfo: @unchecked Sendable {
    let type: Object.Type
    let objectSchema: ObjectSchema
    /// The classes this one links to (and is linked from, for linking objects).
    let linkedTypes: [Object.Type]
    /// Each persisted property's value type, by stored name (for converting loosely typed input).
    let valueTypes: [String: any _Persistable.Type]
    /// `propertiesMapping()` for the class's properties: Swift name → stored name, and back
    /// (empty for a class that stores its properties under their Swift names).
    let storedNames: [String: String]
    let swiftNames: [String: String]
    /// The `@Persisted` properties, superclass first (a property's slot is its position here),
    /// with where their storage is in an instance.
    let fields: [FieldInfo]
    /// Each field's stored name and the offset of its slot in an instance (what every managed
    /// object's creation and reads use, kept apart so they copy no field description).
    let names: [String]
    let slotOffsets: [Int]
    /// Each field's `storage` offset in an instance (unmanaged writes).
    let storageOffsets: [Int]
    /// Whether a property can link to other objects (a link or a list of objects), so adding
    /// an object may have to add the unmanaged objects it links to.
    let hasLinks: Bool
    /// Whether the class has `RealmProperty`/`RealmOptional` boxes to bind when an object
    /// becomes managed (`Object.bindBoxes`).
    let hasBoxes: Bool
    /// The key paths of the properties' storage seen so far, with their slots.
    let keyPathSlots: KeyPathSlots
    /// Each slot's column: its position among the stored properties (-1 for linking objects).
    let columns: [Int]
    /// Whether every stored property of the class is `@Persisted` (none of its own that a
    /// managed object would keep), so that an iteration may recycle a managed object nobody
    /// holds any more for the next one (see `Results.Iterator`).
    let isRecyclable: Bool
    /// What the class hooks (`primaryKey()`, `indexedProperties()`, `ignoredProperties()`)
    /// name that the class cannot have; opening a Realm with the class fails with it.
    let hookProblem: String?

    init(_ type: Object.Type) {
        self.type = type
        let prototype = type.init()
        var properties: [Property] = []
        var linked: [Object.Type] = []
        var valueTypes: [String: any _Persistable.Type] = [:]
        let children = persistedChildren(of: prototype)
        // The runtime's field list and `Mirror` read the same metadata: they agree unless the
        // runtime cannot list the fields, which no Swift class does.
        guard let fields = persistedFields(of: type), fields.map(\.swiftName) == children.map(\.0) else {
            preconditionFailure("the @Persisted properties of \(type) cannot be located in its instances")
        }
        self.fields = fields
        hasBoxes = fields.contains { $0.slotOffset < 0 }
        names = fields.map(\.name)
        slotOffsets = fields.map(\.slotOffset)
        storageOffsets = fields.map(\.storageOffset)
        keyPathSlots = KeyPathSlots(fieldCount: fields.count)
        var stored = 0
        columns = fields.map { field in
            guard !field.access.isLinkingObjects else { return -1 }
            defer { stored += 1 }
            return stored
        }
        if let all = storedPropertyCount(of: type), let base = storedPropertyCount(of: Object.self) {
            // A box (`RealmProperty`) is bound to its object's accessor: never recycled.
            isRecyclable = all - base == fields.count && !fields.contains { $0.slotOffset < 0 }
        } else {
            isRecyclable = false
        }
        hasLinks = children.contains { $0.1.linkedType != nil }
        var problems: [String] = []
        let mapping = type.propertiesMapping()
        let swiftToStored = Dictionary(fields.filter { $0.name != $0.swiftName }.map { ($0.swiftName, $0.name) }) {
            a, _ in a
        }
        storedNames = swiftToStored
        if !swiftToStored.isEmpty { MappedNames.noteMapping() }
        swiftNames = Dictionary(swiftToStored.map { ($0.value, $0.key) }) { a, _ in a }
        for unknown in mapping.keys.sorted() where !fields.contains(where: { $0.swiftName == unknown }) {
            problems.append("\(type).propertiesMapping() maps '\(unknown)', which is not a stored property of \(type)")
        }
        for (field, (_, p)) in zip(fields, children) {
            var property = p.property(name: field.name)
            // The origin of linking objects names the origin class's Swift property: stored under its mapped name.
            if let origin = property.linkOriginPropertyName, let originType = p.linkedType {
                property.linkOriginPropertyName = originType.propertiesMapping()[origin] ?? origin
            }
            properties.append(property)
            if let t = p.linkedType { linked.append(t) }
            valueTypes[field.name] = p.valueType
        }
        // The class hooks name Swift properties.
        func storedName(_ name: String) -> String { swiftToStored[name] ?? name }
        let names = Set(properties.map(\.name))
        if let primaryKey = type.primaryKey().map(storedName) {
            if let index = properties.firstIndex(where: { $0.name == primaryKey }) {
                properties[index].isPrimaryKey = true
                // as `@Persisted(primaryKey: true)` does: the engine looks keys up through the index
                properties[index].isIndexed = true
            } else {
                problems.append(
                    "\(type).primaryKey() names '\(primaryKey)', which is not a @Persisted property of \(type)")
            }
        }
        for indexed in type.indexedProperties().map(storedName) {
            if let index = properties.firstIndex(where: { $0.name == indexed }) {
                properties[index].isIndexed = true
            } else {
                problems.append(
                    "\(type).indexedProperties() names '\(indexed)', which is not a @Persisted property of \(type)")
            }
        }
        for ignored in type.ignoredProperties() where names.contains(storedName(ignored)) {
            problems.append(
                "\(type).ignoredProperties() names '\(ignored)', which is @Persisted: remove one or the other")
        }
        hookProblem = problems.isEmpty ? nil : problems.joined(separator: "; ")
        objectSchema = ObjectSchema(
            name: type.className(), properties: properties, isEmbedded: type is EmbeddedObject.Type)
        linkedTypes = linked
        self.valueTypes = valueTypes
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var byType: [ObjectIdentifier: ClassInfo] = [:]
    nonisolated(unsafe) private static var byName: [String: Object.Type] = [:]

    /// The info of a class, discovered on first use. Every info returned is registered and
    /// never removed, so it lives as long as the process (objects keep it uncounted).
    static func of(_ type: Object.Type) -> ClassInfo {
        let id = ObjectIdentifier(type)
        lock.lock()
        if let info = byType[id] {
            lock.unlock()
            return info
        }
        lock.unlock()
        // Discovery creates a prototype, whose initialisers may create other objects: outside the lock.
        let info = ClassInfo(type)
        lock.lock()
        defer { lock.unlock() }
        if let known = byType[id] { return known }
        byType[id] = info
        // `DynamicObject` is no stored class: its (empty) info names none.
        if type != DynamicObject.self { byName[info.objectSchema.name] = type }
        return info
    }

    /// The class discovered under the stored name `name`, if any (what a Mixed link names).
    static func type(named name: String) -> Object.Type? {
        lock.lock()
        defer { lock.unlock() }
        return byName[name]
    }

    /// The class hooks' problem of the class stored as `name`, if any (`hookProblem`).
    static func hookProblem(named name: String) -> String? {
        lock.lock()
        let type = byName[name]
        lock.unlock()
        return type.flatMap { of($0).hookProblem }
    }

    /// The schema of a Realm opened without `objectTypes`: every `Object` subclass the program
    /// defines (`ClassDiscovery`), as RealmSwift's is, but those whose `_realmIgnoreClass()` is
    /// true. Two classes stored under one name cannot both be in a schema, and which one a
    /// program means cannot be known: neither is taken, nor any class that links to one of
    /// them (name the wanted classes in `objectTypes`; `ambiguousNames` says which they are).
    static var registered: [Object.Type] { defaultSchemaClasses.types }

    /// The stored names two or more classes of the program share (left out of `registered`).
    static var ambiguousNames: Set<String> { defaultSchemaClasses.ambiguous }

    /// Worked out once: the program's classes do not change while it runs.
    private static let defaultSchemaClasses: (types: [Object.Type], ambiguous: Set<String>) = {
        var byStoredName: [String: [Object.Type]] = [:]
        for type in ClassDiscovery.objectTypes where !type._realmIgnoreClass() {
            byStoredName[type.className(), default: []].append(type)
        }
        let ambiguous = Set(byStoredName.filter { $0.value.count > 1 }.keys)
        var kept = byStoredName.compactMapValues { $0.count == 1 ? $0[0] : nil }
        // Leave out, to a fixed point, every class linking to a name that is not kept.
        var changed = true
        while changed {
            changed = false
            for (name, type) in kept
            where of(type).linkedTypes.contains(where: { linked in
                kept[linked.className()].map { ObjectIdentifier($0) != ObjectIdentifier(linked) } ?? true
            }) {
                kept[name] = nil
                changed = true
            }
        }
        return (kept.keys.sorted().compactMap { kept[$0] }, ambiguous)
    }()

    /// The schema of `types` and every class they link to, in a stable order.
    static func schema(for types: [Object.Type]) -> Schema {
        var seen: Set<ObjectIdentifier> = []
        var names: Set<String> = []
        var result: [ObjectSchema] = []
        var queue = types
        while let t = queue.first {
            queue.removeFirst()
            guard seen.insert(ObjectIdentifier(t)).inserted else { continue }
            let info = of(t)
            if names.insert(info.objectSchema.name).inserted { result.append(info.objectSchema) }
            queue.append(contentsOf: info.linkedTypes)
        }
        return Schema(result)
    }
}

/// The `@Persisted` properties of an object, superclass first, with their names.
func persistedChildren(of object: Object) -> [(String, any AnyPersisted)] {
    var mirrors: [Mirror] = []
    var m: Mirror? = Mirror(reflecting: object)
    while let current = m {
        mirrors.append(current)
        m = current.superclassMirror
    }
    var result: [(String, any AnyPersisted)] = []
    for mirror in mirrors.reversed() {
        for child in mirror.children {
            guard let label = child.label, let p = child.value as? any AnyPersisted else { continue }
            // A wrapper's storage is `_name`; a `RealmProperty` box is stored under its own name.
            let isBox = type(of: p) is any BoxType.Type
            result.append((label.hasPrefix("_") && !isBox ? String(label.dropFirst()) : label, p))
        }
    }
    return result
}
