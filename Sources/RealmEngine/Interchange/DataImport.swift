import Foundation

/// Imports parsed objects (`ImportDocument`) into a Realm inside the caller's write transaction.
///
/// Three steps, so that a link may name an object that comes later in the same input (another
/// class further down, or the same class):
/// 1. **Check** every object without writing: its class, its properties (an unknown one is an
///    error naming the class's properties, or is skipped and counted with `ignoreUnknown`), its
///    primary key, and that no two objects of the input share one (unless `upsertDuplicates`).
/// 2. **Create** every object with its non-link properties (upserting by primary key).
/// 3. **Link**: set every link and list of links, now that every object of the input exists.
///    A link is the target's primary key, `{"$ref": "Class", "$index": N}` (the object at
///    position N of that class in this input — how export writes links to objects without a
///    primary key or with a nil one; when the input holds no object of that class, the object
///    at position N of the class in the database as it was before the import), or a nested
///    object.
///
/// Every error names the object by its position in the input and its primary key,
/// `Note[4812] (id 4812): …`. Positions count from 0 per class across the whole input (as the
/// `$index` of a reference does). The caller cancels the transaction on error.
public final class DataImport {
    /// Choices for `run(_:)`.
    public struct Options: Sendable {
        /// Skip properties the class does not have (counted in `Summary.ignoredProperties`)
        /// instead of failing.
        public var ignoreUnknown: Bool
        /// Let a later object with the same primary key update the earlier one instead of failing.
        public var upsertDuplicates: Bool
        /// Creates options.
        public init(ignoreUnknown: Bool = false, upsertDuplicates: Bool = false) {
            self.ignoreUnknown = ignoreUnknown
            self.upsertDuplicates = upsertDuplicates
        }
    }

    /// What an import did, counted per distinct object.
    public struct Summary: Sendable, Equatable {
        /// Objects that did not exist before.
        public var created = 0
        /// Objects that existed (same primary key) and now have different values.
        public var updated = 0
        /// Objects that existed and whose values the input did not change.
        public var unchanged = 0
        /// Values of unknown properties skipped with `ignoreUnknown`.
        public var ignoredProperties = 0
        /// Objects in the input, per class, in input order.
        public var perClass: [(String, Int)] = []

        public static func == (a: Summary, b: Summary) -> Bool {
            a.created == b.created && a.updated == b.updated && a.unchanged == b.unchanged
                && a.ignoredProperties == b.ignoredProperties && a.perClass.elementsEqual(b.perClass, by: ==)
        }
    }

    /// Thrown when `shouldStop` returned true; nothing of the import may be committed.
    public struct Interrupted: Error, CustomStringConvertible {
        /// Creates the error.
        public init() {}
        /// "interrupted: nothing was written".
        public var description: String { "interrupted: nothing was written" }
    }

    private struct Item {
        var className: String
        var position: Int
        var fields: [(Property, JSONValue)]
        var label: String
    }

    private let realm: Realm
    private let options: Options
    private let schema: Schema
    /// Asked between objects; returning true stops the import with `Interrupted`.
    public var shouldStop: () -> Bool = { false }
    /// Called after each object of steps 2 and 3 with (done, total).
    public var progress: (Int, Int) -> Void = { _, _ in }

    private var keys: [String: [Int: ObjectKey]] = [:]
    private var existingBefore: [String: [ObjectKey]] = [:]

    /// An importer writing into `realm`, which must be in a write transaction when `run` is called.
    public init(realm: Realm, options: Options = Options()) {
        self.realm = realm
        self.options = options
        self.schema = realm.schema
    }

    /// Imports `groups` (class name → objects as JSON, in input order).
    public func run(_ groups: [ImportDocument.Group]) throws -> Summary {
        var summary = Summary()
        let items = try check(groups, summary: &summary)
        // The objects a reference may name in the database, listed before anything is created:
        // of each class that references name and the input holds none of (with or without a
        // primary key: export names an object whose optional primary key is nil by position).
        let inInput = Set(groups.map(\.className))
        var referenced: Set<String> = []
        for item in items {
            for (property, json) in item.fields where property.isLink { Self.collectReferences(json, into: &referenced) }
        }
        for className in referenced.sorted() where !inInput.contains(className) && schema[className] != nil {
            existingBefore[className] = try realm.objects(className).keys()
        }
        let total = items.count * 2
        var done = 0
        // Step 2: create with scalars.
        var before: [String: [ObjectKey: [Value]]] = [:]
        var keyOrder: [(String, ObjectKey)] = []
        var seen: Set<String> = []
        for item in items {
            if shouldStop() { throw Interrupted() }
            guard let objectSchema = schema[item.className] else { throw RealmError.noSuchClass(item.className) }
            let key: ObjectKey
            do {
                var dictionary: [String: ObjectInput] = [:]
                for (property, json) in item.fields where !property.isLink {
                    dictionary[property.name] = try JSONImport.input(fromJSON: json, for: property, className: item.className, schema: schema)
                }
                if let pk = objectSchema.primaryKeyProperty, case .value(let pkValue)? = dictionary[pk.name],
                   let existing = try realm.object(ofType: item.className, forPrimaryKey: pkValue) {
                    if before[item.className]?[existing.key] == nil, keys[item.className]?.values.contains(existing.key) != true {
                        before[item.className, default: [:]][existing.key] = try existing.values()
                    }
                }
                let update: UpdatePolicy = objectSchema.primaryKeyProperty == nil ? .error : .modified
                key = try realm.create(item.className, value: .dictionary(dictionary), update: update).key
            } catch {
                throw failure(item, error)
            }
            keys[item.className, default: [:]][item.position] = key
            if seen.insert("\(item.className)\u{0}\(key.rawValue)").inserted { keyOrder.append((item.className, key)) }
            done += 1
            progress(done, total)
        }
        // Step 3: links, now that every object exists.
        for item in items {
            if shouldStop() { throw Interrupted() }
            let links = item.fields.filter { $0.0.isLink }
            if !links.isEmpty {
                do {
                    guard let key = keys[item.className]?[item.position],
                          let object = try realm.object(ofType: item.className, key: key) else { throw RealmError.invalidatedObject }
                    for (property, json) in links {
                        try object.setValue(try linkInput(json, for: property, className: item.className), forKey: property.name)
                    }
                } catch {
                    throw failure(item, error)
                }
            }
            done += 1
            progress(done, total)
        }
        for (className, key) in keyOrder {
            if let old = before[className]?[key] {
                let now = try realm.object(ofType: className, key: key)?.values()
                if let now, Value.identical(now, old) { summary.unchanged += 1 } else { summary.updated += 1 }
            } else {
                summary.created += 1
            }
        }
        return summary
    }

    // MARK: - Step 1

    private func check(_ groups: [ImportDocument.Group], summary: inout Summary) throws -> [Item] {
        var items: [Item] = []
        var next: [String: Int] = [:]
        var primaryKeys: [String: [Value: Int]] = [:]
        for group in groups {
            guard let objectSchema = schema[group.className] else {
                throw RealmError.noSuchClass(group.className)
            }
            if let i = summary.perClass.firstIndex(where: { $0.0 == group.className }) {
                summary.perClass[i].1 += group.objects.count
            } else {
                summary.perClass.append((group.className, group.objects.count))
            }
            for json in group.objects {
                let position = next[group.className, default: 0]
                next[group.className] = position + 1
                var item = Item(className: group.className, position: position, fields: [], label: "\(group.className)[\(position)]")
                let pk = objectSchema.primaryKeyProperty
                let pkJSON = pk.flatMap { primaryKeyJSON(json, pk: $0, objectSchema: objectSchema) }
                if let pk, let pkJSON { item.label += " (\(pk.name) \(pkJSON.snippet()))" }
                item.fields = try fields(json, objectSchema: objectSchema, label: item.label, summary: &summary)
                if let pk, let pkJSON {
                    let value: Value
                    do {
                        value = try JSONImport.value(fromJSON: pkJSON, for: pk, className: group.className)
                    } catch {
                        throw failure(item, error)
                    }
                    if let earlier = primaryKeys[group.className]?[value], !options.upsertDuplicates {
                        throw RealmError.primaryKey(
                            "\(group.className)[\(earlier)] and \(item.label) have the same primary key; an input holds each object once (--upsert-duplicates lets the later one update the earlier)")
                    }
                    primaryKeys[group.className, default: [:]][value] = position
                }
                items.append(item)
            }
        }
        return items
    }

    /// The primary key's JSON in one object, if given.
    private func primaryKeyJSON(_ json: JSONValue, pk: Property, objectSchema: ObjectSchema) -> JSONValue? {
        switch json {
        case .object: return json.member(pk.name)
        case .array(let values):
            guard let i = objectSchema.persistedProperties.firstIndex(where: { $0.name == pk.name }), i < values.count else { return nil }
            return values[i]
        default: return nil
        }
    }

    /// The given properties of one object (a JSON object, or an array in property order).
    private func fields(_ json: JSONValue, objectSchema: ObjectSchema, label: String,
                        summary: inout Summary) throws -> [(Property, JSONValue)] {
        switch json {
        case .object(let members):
            try JSONImport.requireDistinctNames(members, in: label)
            var out: [(Property, JSONValue)] = []
            for member in members {
                guard let property = objectSchema[member.key] else {
                    if options.ignoreUnknown { summary.ignoredProperties += 1; continue }
                    throw RealmError.invalidInput(
                        "\(label): unknown property '\(member.key)'; \(objectSchema.name) has \(objectSchema.persistedProperties.map(\.name).joined(separator: ", ")) (--ignore-unknown skips unknown properties)")
                }
                // Computed backlinks are not stored; a value for one (older exports) is skipped.
                guard property.isPersisted else { continue }
                out.append((property, member.value))
            }
            return out
        case .array(let values):
            let persisted = objectSchema.persistedProperties
            guard values.count <= persisted.count else {
                throw RealmError.invalidInput(
                    "\(label): an array of \(values.count) values, but \(objectSchema.name) has \(persisted.count) stored properties (\(persisted.map(\.name).joined(separator: ", ")))")
            }
            return Array(zip(persisted, values))
        default:
            throw RealmError.invalidInput(
                "\(label): expected a JSON object or an array of values in property order; got \(json.kindName) \(json.snippet())")
        }
    }

    // MARK: - Step 3

    /// The input for a link or list-of-links property, with references resolved to keys.
    private func linkInput(_ json: JSONValue, for property: Property, className: String) throws -> ObjectInput {
        if case .null = json { return .value(.null) }
        guard property.isList else { return try linkElement(json, for: property, label: property.name, className: className) }
        guard case .array(let items) = json else {
            throw RealmError.typeMismatch(className: className, property: property.name,
                                          expected: "\(property.typeDescription) (a JSON array)", got: json.snippet())
        }
        return .array(try items.enumerated().map { i, item in
            try linkElement(item, for: property, label: "\(property.name)[\(i)]", className: className)
        })
    }

    private func linkElement(_ json: JSONValue, for property: Property, label: String, className: String) throws -> ObjectInput {
        let targetName = property.objectClassName ?? ""
        guard let target = schema[targetName] else { throw RealmError.noSuchClass(targetName) }
        if let reference = ImportDocument.reference(json) {
            guard reference.className == targetName else {
                throw RealmError.typeMismatch(className: className, property: label, expected: "a \(targetName)",
                                              got: "a reference to a \(reference.className)")
            }
            if let inInput = keys[targetName] {
                guard let key = inInput[reference.index] else {
                    throw RealmError.invalidInput(
                        "\(className).\(label): the reference \(json.snippet()) names \(targetName)[\(reference.index)], but this input has \(inInput.count) \(targetName) objects")
                }
                return .value(.link(key))
            }
            let existing = try existingKeys(targetName)
            guard reference.index < existing.count else {
                throw RealmError.invalidInput(
                    "\(className).\(label): the reference \(json.snippet()) names \(targetName)[\(reference.index)], but this input has no \(targetName) objects and the database had \(existing.count) (import the \(targetName) objects first, or the whole file at once)")
            }
            return .value(.link(existing[reference.index]))
        }
        switch json {
        case .object(let members):
            try JSONImport.requireDistinctNames(members, in: "\(className).\(label)")
            var dictionary: [String: ObjectInput] = [:]
            for member in members {
                guard let p = target[member.key] else {
                    if options.ignoreUnknown { continue }
                    throw RealmError.invalidInput(
                        "\(className).\(label): unknown property '\(member.key)'; \(targetName) has \(target.persistedProperties.map(\.name).joined(separator: ", "))")
                }
                guard p.isPersisted else { continue }
                dictionary[p.name] = try nested(member.value, for: p, className: targetName)
            }
            return .dictionary(dictionary)
        case .array(let values):
            let persisted = target.persistedProperties
            guard values.count <= persisted.count else {
                throw RealmError.invalidInput(
                    "\(className).\(label): an array of \(values.count) values, but \(targetName) has \(persisted.count) stored properties")
            }
            return .array(try zip(persisted, values).map { p, v in try nested(v, for: p, className: targetName) })
        default:
            return try JSONImport.element(fromJSON: json, for: property, className: className, propertyLabel: label, schema: schema)
        }
    }

    /// The classes `{"$ref": C, "$index": N}` objects name in `json`, nested objects included.
    private static func collectReferences(_ json: JSONValue, into classes: inout Set<String>) {
        if let reference = ImportDocument.reference(json) {
            classes.insert(reference.className)
            return
        }
        switch json {
        case .array(let items): for item in items { collectReferences(item, into: &classes) }
        case .object(let members): for member in members { collectReferences(member.value, into: &classes) }
        default: break
        }
    }

    /// The keys of a class's objects as they were before this import, in export order: what a
    /// reference names when the input holds no object of that class (importing one class at a
    /// time, link targets first, from per-class exports of the same database).
    private func existingKeys(_ className: String) throws -> [ObjectKey] {
        if let known = existingBefore[className] { return known }
        throw RealmError.invalidInput("\(className) is not a class of the database")
    }

    private func nested(_ json: JSONValue, for property: Property, className: String) throws -> ObjectInput {
        property.isLink ? try linkInput(json, for: property, className: className)
            : try JSONImport.input(fromJSON: json, for: property, className: className, schema: schema)
    }

    private func failure(_ item: Item, _ error: Error) -> Error {
        if error is Interrupted { return error }
        let text = (error as? RealmError)?.description ?? String(describing: error)
        return RealmError.invalidInput("\(item.label): \(text)")
    }
}
