import Foundation
import RealmEngine

/// `u`: takes back an earlier commit of this explorer in the open write transaction, unless
/// another writer changed its objects since (then it refuses, naming the conflict, and nothing
/// is written).
extension EditTransaction {
    func undo(_ record: UndoRecord) throws -> WriteReceipt {
        switch record {
        case .values(let className, let property, let changes):
            for (index, change) in changes.enumerated() {
                try tick(index, of: changes.count)
                let object = try existing(className, change.key)
                guard try object.value(forKey: property).isIdentical(to: change.new) else {
                    throw RealmError.invalidInput(
                        "\(className)#\(change.key.rawValue).\(property) changed since; undo would overwrite that change"
                    )
                }
                try object.setValue(change.old, forKey: property)
            }
            return WriteReceipt(
                summary: "undone: \(property) restored on \(changes.count) object\(changes.count == 1 ? "" : "s")",
                version: 0)
        case .created(let className, let key, let values):
            let object = try existing(className, key)
            for (name, value) in values where try !object.value(forKey: name).isIdentical(to: value) {
                throw RealmError.invalidInput(
                    "\(className)#\(key.rawValue).\(name) changed since; undo would delete that change")
            }
            try realm.delete(object)
            return WriteReceipt(summary: "undone: \(className)#\(key.rawValue) deleted again", version: 0)
        case .list(let className, let key, let property, let before, let after):
            let list = try existing(className, key).list(forKey: property)
            guard Value.identical(try list.elements(), after) else {
                throw RealmError.invalidInput(
                    "\(className)#\(key.rawValue).\(property) changed since; undo would overwrite that change")
            }
            try list.removeAll()
            for value in before { try list.append(.value(value)) }
            return WriteReceipt(summary: "undone: \(property) restored", version: 0)
        case .deleted(let deleted):
            return try restore(deleted)
        case .embeddedRemoved(let entry):
            return try putBack(entry)
        case .embeddedAdded(let entry):
            return try takeOutAgain(entry)
        case .embeddedGroupRemoved(let group):
            return try putBack(group)
        case .embeddedGroupAdded(let group):
            return try takeOutAgain(group)
        case .renamed(let className, let key, let property, let from, let to):
            // Renaming back: the key `to` must still be there and `from` free.
            _ = try renameEmbedded(try existing(className, key), property, from: to, to: from)
            return WriteReceipt(summary: "undone: \(property)['\(from)'] is back under its key", version: 0)
        }
    }

    // MARK: Delete, recorded

    /// Deletes the objects `keys` of `className`, first recording what `u` needs to restore
    /// them (unless there are more than `DeletedObjects.limit`).
    func delete(_ className: String, _ keys: [ObjectKey]) throws -> WriteReceipt {
        let embedded = realm.schema[className]?.isEmbedded == true
        // One embedded object is recorded with its place in its parent, where an undo makes it
        // again (it cannot be made on its own).
        if embedded, keys.count == 1, let key = keys.first {
            let object = try existing(className, key)
            if let (parent, property) = try object.embeddingParent() {
                let entry = try takeOut(object, of: parent, property) { try realm.delete(object) }
                return WriteReceipt(
                    summary: "deleted \(className)#\(key.rawValue) from \(entry.placeText)",
                    undo: .embeddedRemoved(entry), version: 0)
            }
        }
        // Several: each recorded with its place, so one u makes them all again there.
        if embedded, keys.count > 1, keys.count <= DeletedObjects.limit, let group = try takeOutGroup(className, keys) {
            return WriteReceipt(
                summary: "deleted \(group.objectsText) from their parents (u puts them back)",
                undo: .embeddedGroupRemoved(group), version: 0)
        }
        // Links from inside embedded objects cannot be found by a query, so such a delete could
        // not be restored whole: not recorded either.
        let linkedFromEmbedded = !realm.schema.embeddedOrigins(of: className).isEmpty
        // Nor one holding embedded objects: they are deleted with it, and a restore would link
        // to objects that are gone.
        let holdsEmbedded =
            realm.schema[className]?.properties.contains {
                $0.type == .object && $0.objectClassName.flatMap { realm.schema[$0] }?.isEmbedded == true
            } == true
        let record =
            keys.count <= DeletedObjects.limit && !embedded && !linkedFromEmbedded && !holdsEmbedded
            ? try recordDeletion(className, keys) : nil
        // Progress counts the recording as the first half of the work.
        let (base, total) = record == nil ? (0, keys.count) : (keys.count, 2 * keys.count)
        for (index, key) in keys.enumerated() {
            try tick(base + index, of: total)
            try realm.delete(try existing(className, key))
        }
        var undo: UndoRecord?
        if var record {
            // The objects that linked here, as the delete left them: an undo checks them.
            var seen = Set<Batch.ObjectID>()
            for link in record.incoming
            where seen.insert(Batch.ObjectID(className: link.originClass, key: link.originKey)).inserted {
                record.origins.append(
                    .init(
                        className: link.originClass, key: link.originKey,
                        values: try existing(link.originClass, link.originKey).values()))
            }
            undo = .deleted(record)
        }
        var summary = "deleted \(ValueFormatter.grouped(keys.count)) \(className) object\(keys.count == 1 ? "" : "s")"
        if embedded {
            summary += " (embedded: u cannot restore \(keys.count == 1 ? "it" : "them"))"
        } else if holdsEmbedded {
            summary += " (with the embedded objects inside: u cannot restore \(keys.count == 1 ? "it" : "them"))"
        } else if linkedFromEmbedded {
            summary += " (linked from embedded objects: u cannot restore \(keys.count == 1 ? "it" : "them"))"
        } else if undo == nil {
            summary += " (more than \(ValueFormatter.grouped(DeletedObjects.limit)): u cannot restore them)"
        }
        return WriteReceipt(summary: summary, undo: undo, version: 0)
    }

    /// The objects' values and every link or list entry of another object pointing at them.
    private func recordDeletion(_ className: String, _ keys: [ObjectKey]) throws -> DeletedObjects {
        guard let schema = realm.schema[className] else { throw RealmError.noSuchClass(className) }
        let deleted = Set(keys)
        var values: [ObjectKey: [Value]] = [:]
        if keys.count <= 16 {
            for key in keys { values[key] = try existing(className, key).values() }
        } else {
            // One pass over the class reads faster than a lookup per key.
            for object in try realm.objects(className) where deleted.contains(object.key) {
                try tick(values.count, of: 2 * keys.count)
                values[object.key] = try object.values()
            }
        }
        let objects = try keys.map { key in
            guard let found = values[key] else {
                throw RealmError.invalidInput("\(className)#\(key.rawValue) was deleted meanwhile")
            }
            return DeletedObjects.Object(key: key, values: found)
        }
        var incoming: [DeletedObjects.IncomingLink] = []
        for origin in realm.schema.objectSchemas {
            let properties = origin.persistedProperties.filter { $0.type == .object && $0.objectClassName == className }
            guard !properties.isEmpty else { continue }
            for object in try linkingCandidates(origin, properties, keys) {
                // A deleted object's own links come back with it.
                if origin.name == className && deleted.contains(object.key) { continue }
                for property in properties {
                    let value = try object.value(forKey: property.name)
                    if case .list(let elements) = value {
                        for (index, element) in elements.enumerated() {
                            if case .link(let target) = element, deleted.contains(target) {
                                incoming.append(
                                    .init(
                                        originClass: origin.name, originKey: object.key, property: property.name,
                                        index: index, target: target))
                            }
                        }
                    } else if case .map = value {
                        for (mapKey, element) in value.sortedEntries {
                            if case .link(let target) = element, deleted.contains(target) {
                                incoming.append(
                                    .init(
                                        originClass: origin.name, originKey: object.key, property: property.name,
                                        index: nil, target: target, mapKey: mapKey))
                            }
                        }
                    } else if case .link(let target) = value, deleted.contains(target) {
                        incoming.append(
                            .init(
                                originClass: origin.name, originKey: object.key, property: property.name,
                                index: nil, target: target))
                    }
                }
            }
        }
        return DeletedObjects(
            className: className, properties: schema.persistedProperties.map(\.name), objects: objects,
            incoming: incoming, origins: [])
    }

    /// The objects of `origin` that may link to `keys`: found by a query per key for a few keys,
    /// otherwise every object of the class (one pass instead of a query per deleted object).
    private func linkingCandidates(_ origin: ObjectSchema, _ properties: [Property], _ keys: [ObjectKey]) throws
        -> [DynamicObject]
    {
        let all = try realm.objects(origin.name)
        guard keys.count <= 16 else { return Array(all) }
        var found: [ObjectKey: DynamicObject] = [:]
        for key in keys {
            for property in properties {
                let query = property.isList ? "ANY \(property.name) == $0" : "\(property.name) == $0"
                for object in try all.filter(query, arguments: [.link(key)]) { found[object.key] = object }
            }
        }
        return found.keys.sorted().compactMap { found[$0] }
    }

    // MARK: Restore

    /// Puts deleted objects back: the same values (and primary key), their links among
    /// themselves remapped to their new keys, and the links and list entries that pointed at
    /// them, as long as nobody changed the objects holding those since.
    private func restore(_ record: DeletedObjects) throws -> WriteReceipt {
        let className = record.className
        guard let schema = realm.schema[className], schema.persistedProperties.map(\.name) == record.properties else {
            throw RealmError.invalidInput("the schema of \(className) changed since the delete; undo cannot restore it")
        }
        for origin in record.origins {
            guard let object = try realm.object(ofType: origin.className, key: origin.key) else {
                throw RealmError.invalidInput(
                    "\(origin.className)#\(origin.key.rawValue), which linked to it, was deleted since")
            }
            guard Value.identical(try object.values(), origin.values) else {
                throw RealmError.invalidInput(
                    "\(origin.className)#\(origin.key.rawValue), which linked to it, changed since; undo would overwrite that change"
                )
            }
        }
        let properties = schema.persistedProperties
        let primaryKey = properties.firstIndex(where: \.isPrimaryKey)
        // First the objects without their links (a link may point at another restored object).
        var newKeys: [ObjectKey: ObjectKey] = [:]
        for (index, object) in record.objects.enumerated() {
            try tick(index, of: record.objects.count)
            if let primaryKey, try realm.object(ofType: className, forPrimaryKey: object.values[primaryKey]) != nil {
                throw RealmError.invalidInput(
                    "a \(className) with \(properties[primaryKey].name) \(object.values[primaryKey]) exists again; undo would duplicate it"
                )
            }
            var input: [String: ObjectInput] = [:]
            for (property, value) in zip(properties, object.values) where property.type != .object {
                if case .list(let elements) = value {
                    input[property.name] = .array(elements.map { .value($0) })
                } else {
                    input[property.name] = .value(value)
                }
            }
            newKeys[object.key] = try realm.create(className, value: .dictionary(input)).key
        }
        // Then their links, remapped.
        func remapped(_ value: Value, _ property: Property) throws -> Value {
            guard case .link(let target) = value else { return value }
            if property.objectClassName == className, let key = newKeys[target] { return .link(key) }
            let targetClass = property.objectClassName ?? ""
            guard try realm.object(ofType: targetClass, key: target) != nil else {
                throw RealmError.invalidInput(
                    "\(targetClass)#\(target.rawValue), which it linked to, was deleted since")
            }
            return value
        }
        for object in record.objects {
            guard let key = newKeys[object.key], let restored = try realm.object(ofType: className, key: key) else {
                continue
            }
            for (property, value) in zip(properties, object.values) where property.type == .object {
                if case .list(let elements) = value {
                    try restored.setValue(
                        .array(try elements.map { .value(try remapped($0, property)) }), forKey: property.name)
                } else if value != .null {
                    try restored.setValue(try remapped(value, property), forKey: property.name)
                }
            }
        }
        // Then the links of other objects, list entries in their old positions (ascending, so
        // each lands where it was).
        let sorted = record.incoming.sorted {
            ($0.originClass, $0.originKey, $0.property, $0.index ?? -1) < (
                $1.originClass, $1.originKey, $1.property, $1.index ?? -1
            )
        }
        for link in sorted {
            guard let key = newKeys[link.target] else { continue }
            let origin = try existing(link.originClass, link.originKey)
            if let index = link.index {
                let list = try origin.list(forKey: link.property)
                // A set puts the link where its order says; a list where it was.
                if list.property.isSet {
                    try list.append(.value(.link(key)))
                } else {
                    try list.insert(.value(.link(key)), at: index)
                }
            } else if let mapKey = link.mapKey {
                // A dictionary kept the key with nil: the restored object goes back under it.
                try origin.map(forKey: link.property).setValue(.link(key), forKey: mapKey)
            } else {
                try origin.setValue(.link(key), forKey: link.property)
            }
        }
        let created = record.objects.count == 1 ? record.objects.first.flatMap { newKeys[$0.key] } : nil
        return WriteReceipt(
            summary: restoredSummary(record, newKeys, primaryKey: primaryKey), created: created, version: 0)
    }

    /// "undone: Dog#2 restored as Dog#5 (Dog has no primary key: a new key) with the 2 links to
    /// it", "undone: Author#0 restored as Author#76 (same id 1)", or "undone: 3 Dog objects
    /// restored with the 3 links to them; 3 have new keys (Dog has no primary key)".
    private func restoredSummary(_ record: DeletedObjects, _ newKeys: [ObjectKey: ObjectKey], primaryKey: Int?)
        -> String
    {
        let className = record.className
        let links = record.incoming.count
        let plural = record.objects.count == 1 ? "it" : "them"
        let withLinks =
            links == 0 ? "" : " with the \(ValueFormatter.grouped(links)) link\(links == 1 ? "" : "s") to \(plural)"
        if record.objects.count == 1, let object = record.objects.first {
            var text = "undone: \(className)#\(object.key.rawValue) restored"
            if let key = newKeys[object.key], key != object.key {
                text += " as \(className)#\(key.rawValue)"
                if let primaryKey {
                    text += " (same \(record.properties[primaryKey]) \(object.values[primaryKey]))"
                } else {
                    text += " (\(className) has no primary key: a new key)"
                }
            }
            return text + withLinks
        }
        var text = "undone: \(ValueFormatter.grouped(record.objects.count)) \(className) objects restored" + withLinks
        let moved = record.objects.count { newKeys[$0.key] != $0.key }
        if moved > 0 {
            text += "; \(ValueFormatter.grouped(moved)) have new keys"
            text += primaryKey == nil ? " (\(className) has no primary key)" : " (their primary keys are the same)"
        }
        return text
    }
}
