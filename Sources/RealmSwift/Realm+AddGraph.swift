import Foundation

// How `add` makes an unmanaged object graph managed, as RealmSwift does: every unmanaged
// instance the object reaches through its links and lists becomes the managed object made for
// it — one object per instance however often it is linked, cycles included — and the instances
// themselves become managed (none is copied).
//
// What holds:
// 1. Each unmanaged instance is created once: `made` maps it to its object's key.
// 2. An object is created after the unmanaged objects it links to (depth first, post-order),
//    so its links are given as keys. A link to an instance still being walked (a cycle: it is
//    on the path from the root) is left empty and set once every object exists.
// 3. The walk keeps its own stack: a chain of many thousand links does not grow the thread's.
// 4. Instances are attached to their objects only after every object was created and every
//    link set. When a step throws, no instance is attached (all stay unmanaged) and the caller
//    records the error, so the enclosing `write` throws and rolls back what was created.
// 5. An unmanaged embedded object is no node of the walk: its values are given inside its
//    parent's input (made with its parent), the objects it links to are walked as its parent's,
//    and it is attached to the embedded object made for it once its parent is attached.

extension Realm {
    /// One unmanaged object on the walk, with the unmanaged objects it links to and how many
    /// of them were visited.
    private struct GraphFrame {
        let object: Object
        let targets: [Object]
        var next = 0
    }

    /// Creates `root` and the unmanaged objects it reaches, then makes each instance the managed
    /// object created for it; returns the key of `root`'s object. Inside a write transaction.
    func addGraph(_ root: Object, update: UpdatePolicy) throws -> ObjectKey {
        if !root.info.hasLinks {
            // No links: no walk (the path of a bulk add).
            let info = check(type(of: root))
            let accessor = try dynamicRealm.createAccessor(
                info.objectSchema.name, value: root._rlmUnmanagedArray(for: self), update: update)
            let key = accessor.key
            root.manage(accessor)
            root.realm = self
            return key
        }
        var made: [ObjectIdentifier: ObjectKey] = [:]
        var onPath: Set<ObjectIdentifier> = []
        var created: [(object: Object, accessor: ObjectAccessor)] = []
        // Properties left empty because they link back up the path: (index in `created`, name).
        var linksBack: [(index: Int, name: String)] = []
        var stack: [GraphFrame] = []

        func enter(_ object: Object) {
            onPath.insert(ObjectIdentifier(object))
            let targets = object.info.hasLinks ? Self.unmanagedTargets(of: object) : []
            stack.append(GraphFrame(object: object, targets: targets))
        }

        enter(root)
        while var frame = stack.popLast() {
            if frame.next < frame.targets.count {
                let target = frame.targets[frame.next]
                frame.next += 1
                stack.append(frame)
                let id = ObjectIdentifier(target)
                if made[id] == nil && !onPath.contains(id) { enter(target) }
                continue
            }
            let object = frame.object
            let info = check(type(of: object))
            var deferred: [String] = []
            let input = graphInput(of: object, made: made, deferred: &deferred)
            let accessor = try dynamicRealm.createAccessor(info.objectSchema.name, value: input, update: update)
            made[ObjectIdentifier(object)] = accessor.key
            onPath.remove(ObjectIdentifier(object))
            linksBack += deferred.map { (created.count, $0) }
            created.append((object, accessor))
        }

        for (index, name) in linksBack {
            let (object, accessor) = created[index]
            guard let field = object.fieldHandles().first(where: { $0.name == name }),
                let input = linkInput(field, of: object, made: made)
            else {
                // Every instance the walk reached was created: its key is in `made`.
                throw RealmError.invalidInput(
                    "add: \(type(of: object).className()).\(name) links to an object that was not created")
            }
            try accessor.setValue(input, column: try accessor.column(name))
        }
        for (object, accessor) in created {
            let children = object.unmanagedEmbeddedChildren()
            object.manage(accessor)
            object.realm = self
            if !children.isEmpty, let parent = object.accessor { adoptChildren(children, of: parent) }
        }
        guard let key = made[ObjectIdentifier(root)] else {
            throw RealmError.invalidInput("add: the \(type(of: root).className()) given was not created")
        }
        return key
    }

    /// The unmanaged objects `object` links to, directly or through the unmanaged embedded
    /// objects it holds (which are made with it, not walked).
    private static func unmanagedTargets(of object: Object) -> [Object] {
        var result: [Object] = []
        var embedded: [Object] = [object]
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(object)]
        while let holder = embedded.popLast() {
            for field in holder.fieldHandles() {
                for target in field.access.links(field.field) where target.managed == nil {
                    if !(target is EmbeddedObject) {
                        result.append(target)
                    } else if seen.insert(ObjectIdentifier(target)).inserted {
                        embedded.append(target)
                    }
                }
            }
        }
        return result
    }

    /// The input of an unmanaged embedded object, made with its parent: its values, links to
    /// objects already made given as keys; nil when one it links to has no object yet.
    private func embeddedInput(of object: Object, made: [ObjectIdentifier: ObjectKey]) -> ObjectInput? {
        var values: [String: ObjectInput] = [:]
        for field in object.fieldHandles() where !field.access.isLinkingObjects {
            guard let input = linkInput(field, of: object, made: made) else { return nil }
            values[field.name] = input
        }
        return .dictionary(values)
    }

    /// The input that creates `object`: its values, with links to objects already made given
    /// as keys. A link property whose target is still on the path is given empty and its name
    /// added to `deferred`.
    private func graphInput(of object: Object, made: [ObjectIdentifier: ObjectKey], deferred: inout [String])
        -> ObjectInput
    {
        guard object.info.hasLinks else { return object._rlmUnmanagedArray(for: self) }
        var values: [String: ObjectInput] = [:]
        for field in object.fieldHandles() where !field.access.isLinkingObjects {
            if let input = linkInput(field, of: object, made: made) {
                values[field.name] = input
            } else if object.info.objectSchema[field.name]?.isList == true {
                values[field.name] = .array([])
                deferred.append(field.name)
            } else if object.info.objectSchema[field.name]?.isMap == true {
                values[field.name] = .dictionary([:])
                deferred.append(field.name)
            } else {
                values[field.name] = .value(.null)
                deferred.append(field.name)
            }
        }
        return .dictionary(values)
    }

    /// The input of one property of an unmanaged object: an object linked to is given by its
    /// key (a managed one of this Realm, or an instance in `made`); nil when an instance linked
    /// to has no object yet. A property that links to no unmanaged object gives its value.
    private func linkInput(_ field: FieldHandle, of object: Object, made: [ObjectIdentifier: ObjectKey]) -> ObjectInput?
    {
        let targets = field.access.links(field.field)
        guard !targets.isEmpty else { return field.access.unmanagedInput(field.field, for: self) }
        var items: [ObjectInput] = []
        items.reserveCapacity(targets.count)
        for target in targets {
            if target.managed != nil {
                // This Realm's object by key; another Realm's is copied (as before), and so is
                // an embedded one (it has a parent already: the new one gets a copy).
                items.append(target._rlmInput(for: self))
            } else if target is EmbeddedObject {
                guard let input = embeddedInput(of: target, made: made) else { return nil }
                items.append(input)
            } else if let key = made[ObjectIdentifier(target)] {
                items.append(.value(.link(key)))
            } else {
                return nil
            }
        }
        if object.info.objectSchema[field.name]?.isList == true { return .array(items) }
        if object.info.objectSchema[field.name]?.isMap == true {
            // The map's objects come in key order (`Map._rlmLinkedObjects`); its input names the
            // keys, nil values included.
            guard case .dictionary(let given)? = field.access.unmanagedInput(field.field, for: self) else { return nil }
            let linkedKeys = given.filter { if case .value(.null) = $0.value { false } else { true } }.keys
                .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            guard linkedKeys.count == items.count else { return nil }
            var entries = given.filter { if case .value(.null) = $0.value { true } else { false } }
            for (key, item) in zip(linkedKeys, items) { entries[key] = item }
            return .dictionary(entries)
        }
        return items.first
    }
}
