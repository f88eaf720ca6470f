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

    /// A primary key given twice in the input: reported as it is, not as a failure of the object.
    private struct Duplicate: Error {
        var error: RealmError
    }

    /// An object whose links are set once every object of the input exists.
    private struct PendingLinks {
        var className: String
        var key: ObjectKey
        var label: ObjectLabel
        var fields: [(Property, JSONValue)]
    }

    /// Names an object of the input in errors, `Note[4812] (id 4812)`: its text is made only
    /// when an error needs it (making it for every object was a tenth of an import's time).
    private struct ObjectLabel: CustomStringConvertible {
        var className: String
        var position: Int
        var primaryKey: (name: String, json: JSONValue)?

        var description: String {
            let base = "\(className)[\(position)]"
            guard let primaryKey else { return base }
            return base + " (\(primaryKey.name) \(primaryKey.json.snippet()))"
        }
    }

    /// What `add` needs of the class being imported, looked up once a group.
    private struct CurrentClass {
        var name: String
        var objectSchema: ObjectSchema
        var classIndex: Int
        /// Its stored properties, in column order (`ObjectSchema.persistedProperties` filters
        /// every time it is asked).
        var persisted: [Property]
        /// Column of each stored property by name.
        var columns: [String: Int]
        var primaryKeyColumn: Int?
        /// The objects of this class imported so far (moved back into `keys` when the group ends).
        var keys: [ObjectKey]
        /// Its entry in `summary.perClass`.
        var summaryIndex: Int
        /// Whether `firstCreated` is known to hold this class (so that `addRow` looks it up
        /// once a group, not once an object).
        var createdAny = false
    }

    private let realm: Realm
    private let options: Options
    private let schema: Schema
    /// Asked between objects; returning true stops the import with `Interrupted`.
    public var shouldStop: () -> Bool = { false }
    /// Called after each object is created (with the objects so far and their total, or 0 when
    /// a streamed input's total is not known yet) and after each object's links are set.
    public var progress: (Int, Int) -> Void = { _, _ in }

    /// Per class of the input, the key of the object at each position (what `$index` names).
    private var keys: [String: [ObjectKey]] = [:]
    /// Per class, the first key this import created: keys are handed out in increasing order,
    /// so an object with a key at or past it was created by this import.
    private var firstCreated: [String: ObjectKey] = [:]
    /// Objects that existed before the import and that it touched: their values before it.
    private var before: [String: [ObjectKey: [Value]]] = [:]
    private var pendingLinks: [PendingLinks] = []
    private var existingBefore: [String: [ObjectKey]] = [:]
    private var summary = Summary()
    private var current: CurrentClass?
    /// Reads the current class's plain objects straight into rows (nil: a class it cannot read).
    private var rowReader: ScalarRowReader?
    private var objectsAdded = 0

    /// An importer writing into `realm`, which must be in a write transaction when `run` is called.
    public init(realm: Realm, options: Options = Options()) {
        self.realm = realm
        self.options = options
        self.schema = realm.schema
    }

    /// Imports `groups` (class name → objects as JSON, in input order).
    public func run(_ groups: [ImportDocument.Group]) throws -> Summary {
        for group in groups {
            try beginGroup(group.className)
            for json in group.objects { try add(json) }
        }
        return try finish(total: objectsAdded)
    }

    /// Imports the objects of `stream` as it reads them: each object is created as it is
    /// parsed and its JSON let go (links are kept until every object exists), so memory grows
    /// with the links of the input, not with its size.
    public func run(_ stream: JSONElementStream) throws -> Summary {
        // Plain objects of a scalar class are read from their bytes (`addRow`); the rest parsed.
        let offer: (UnsafeBufferPointer<UInt8>) throws -> Bool = { [unowned self] bytes in try self.addRow(bytes) }
        while let event = try stream.next(offering: offer) {
            switch event {
            case .group(let className): try beginGroup(className)
            case .element(let json): try add(json)
            }
        }
        return try finish(total: objectsAdded)
    }

    // MARK: - Steps 1 and 2: check and create each object as it comes

    private func beginGroup(_ className: String) throws {
        guard let objectSchema = schema[className] else { throw RealmError.noSuchClass(className) }
        if objectSchema.isEmbedded {
            throw RealmError.invalidInput(
                "\(schema.embeddedClassNote(className)); import them inside their parents' objects")
        }
        endGroup()
        if !summary.perClass.contains(where: { $0.0 == className }) { summary.perClass.append((className, 0)) }
        let persisted = objectSchema.persistedProperties
        current = CurrentClass(
            name: className, objectSchema: objectSchema, classIndex: try realm.classIndex(className),
            persisted: persisted,
            columns: Dictionary(persisted.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first }),
            primaryKeyColumn: persisted.firstIndex(where: \.isPrimaryKey),
            keys: keys.removeValue(forKey: className) ?? [],
            summaryIndex: summary.perClass.firstIndex { $0.0 == className } ?? 0)
        rowReader = ScalarRowReader(persisted: persisted)
    }

    /// Puts the current class's keys back where step 3 looks for them.
    private func endGroup() {
        guard let current else { return }
        // A class whose group was empty stays absent: a reference to it names the database's objects.
        if !current.keys.isEmpty { keys[current.name] = current.keys }
        self.current = nil
        rowReader = nil
    }

    /// Creates the object in `bytes` when it is a plain object the row reader reads (every
    /// stored property given once, as a scalar) and its primary key is new: its row goes to the
    /// engine as it is stored, with no `JSONValue`, `ObjectInput` or accessor. False (nothing
    /// done) for any other object, which `add` then parses and imports — with the same
    /// result or error, as everything this skips is what `add` does for a new plain object.
    private func addRow(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Bool {
        // Taken out while it reads and its row is inserted, so that its buffers are not copied
        // on write; the current class is read and changed in place (copying it per object cost
        // a retain and release of each of its members).
        guard var reader = rowReader, let classIndex = current?.classIndex else { return false }
        rowReader = nil
        defer { rowReader = reader }
        guard reader.read(bytes) else { return false }
        if let pkColumn = current?.primaryKeyColumn {
            // An object that exists (an update, or a key given twice) takes the general path;
            // so does a lookup that fails, which then fails there the same way.
            do {
                if try realm.existingObjectKey(classIndex: classIndex, primaryKey: reader.row[pkColumn]) != nil {
                    return false
                }
            } catch {
                return false
            }
        }
        if shouldStop() { throw Interrupted() }
        let key: ObjectKey
        do {
            key = try realm.insertImportedRow(classIndex: classIndex, reader.row)
        } catch {
            // A refused row changes nothing: `add` tries it again and names the object in the error.
            return false
        }
        summary.created += 1
        if current?.createdAny == false {
            if let name = current?.name, firstCreated[name] == nil { firstCreated[name] = key }
            current?.createdAny = true
        }
        current?.keys.append(key)
        if let summaryIndex = current?.summaryIndex { summary.perClass[summaryIndex].1 += 1 }
        objectsAdded += 1
        progress(objectsAdded, 0)
        return true
    }

    /// Checks one object of the current class and creates it with its values but its links.
    private func add(_ json: JSONValue) throws {
        if shouldStop() { throw Interrupted() }
        guard var current else {
            throw RealmError.internalError("internal error: an imported object came before its class")
        }
        // `current` is updated at the end; meanwhile its keys are not held twice.
        self.current = nil
        defer { self.current = current }
        let className = current.name
        let pk = current.primaryKeyColumn.map { current.persisted[$0] }
        let label = ObjectLabel(
            className: className, position: current.keys.count,
            primaryKey: pk.flatMap { pk in primaryKeyJSON(json, pk: pk, current: current).map { (pk.name, $0) } })
        let fields = try fields(json, of: current, label: label, summary: &summary)
        let key: ObjectKey
        var links: [(Property, JSONValue)] = []
        do {
            // Values by column; given as an array in column order when every column has one (no
            // name to hash, here or when the object is made), else as a dictionary.
            var values = [ObjectInput?](repeating: nil, count: current.persisted.count)
            var given = 0
            for (column, value) in fields {
                let property = current.persisted[column]
                if isLinkField(property, value) {
                    links.append((property, value))
                    continue
                }
                // Embedded objects that name no other object are created with their parent.
                values[column] =
                    property.isLink
                    ? try linkInput(value, for: property, className: className)
                    : try JSONImport.input(fromJSON: value, for: property, className: className, schema: schema)
                given += 1
            }
            let input: ObjectInput
            if given == values.count {
                input = .array(values.map { $0 ?? .value(.null) })
            } else {
                var dictionary: [String: ObjectInput] = [:]
                dictionary.reserveCapacity(given)
                for (column, value) in values.enumerated() {
                    if let value { dictionary[current.persisted[column].name] = value }
                }
                input = .dictionary(dictionary)
            }
            var existed = false
            if let pkColumn = current.primaryKeyColumn, case .value(let pkValue)? = values[pkColumn],
                let existingKey = try realm.existingObjectKey(classIndex: current.classIndex, primaryKey: pkValue)
            {
                existed = true
                let createdHere = firstCreated[className].map { existingKey >= $0 } ?? false
                if createdHere || before[className]?[existingKey] != nil {
                    if !options.upsertDuplicates {
                        let earlier = current.keys.firstIndex(of: existingKey).map(String.init) ?? "?"
                        throw Duplicate(
                            error: RealmError.primaryKey(
                                "\(className)[\(earlier)] and \(label) have the same primary key; an input holds each object once (--upsert-duplicates lets the later one update the earlier)"
                            ))
                    }
                } else if let existing = try realm.object(ofType: className, key: existingKey) {
                    before[className, default: [:]][existingKey] = try contents(existing)
                }
            }
            key = try realm.createAccessor(className, value: input, update: pk == nil ? .error : .modified).key
            if !existed {
                summary.created += 1
                if firstCreated[className] == nil { firstCreated[className] = key }
            }
        } catch let duplicate as Duplicate {
            throw duplicate.error
        } catch {
            throw failure(label, error)
        }
        current.keys.append(key)
        summary.perClass[current.summaryIndex].1 += 1
        if !links.isEmpty {
            pendingLinks.append(PendingLinks(className: className, key: key, label: label, fields: links))
        }
        objectsAdded += 1
        progress(objectsAdded, 0)
    }

    // MARK: - Step 3: links, now that every object exists

    private func finish(total: Int) throws -> Summary {
        endGroup()
        // The objects a reference may name in the database: of each class that references
        // name and the input holds none of, listed before any nested object is created (with
        // or without a primary key: export names an object whose optional primary key is nil
        // by position). Step 2 created no object of such a class.
        var referenced: Set<String> = []
        for pending in pendingLinks {
            for (_, json) in pending.fields {
                Self.collectReferences(json, into: &referenced)
                MixedJSON.indexedLinkClasses(json, into: &referenced)
            }
        }
        // Embedded classes have no positions to name (a reference to one is refused in `linkElement`).
        for className in referenced.sorted()
        where keys[className] == nil && schema[className].map({ !$0.isEmbedded }) ?? false {
            existingBefore[className] = try realm.objects(className).keys()
        }
        var done = 0
        for pending in pendingLinks {
            if shouldStop() { throw Interrupted() }
            do {
                guard let object = try realm.object(ofType: pending.className, key: pending.key) else {
                    throw RealmError.invalidatedObject
                }
                for (property, json) in pending.fields {
                    try object.setValue(
                        try linkInput(json, for: property, className: pending.className), forKey: property.name)
                }
            } catch {
                throw failure(pending.label, error)
            }
            done += 1
            progress(total + done, total + pendingLinks.count)
        }
        for (className, objects) in before {
            for (key, old) in objects {
                let now = try realm.object(ofType: className, key: key).map(contents)
                if let now, Value.identical(now, old) { summary.unchanged += 1 } else { summary.updated += 1 }
            }
        }
        return summary
    }

    /// An object's values with each embedded object in place of its link, recursively: an
    /// import replaces the nested objects it is given with new ones, which are the same
    /// objects when their contents are (an object imported again is unchanged).
    private func contents(_ object: DynamicObject) throws -> [Value] {
        try contents(object.values(), of: object.objectSchema)
    }

    /// `values` (persisted, in order) of an object of `objectSchema` with its embedded objects' contents.
    private func contents(_ values: [Value], of objectSchema: ObjectSchema) throws -> [Value] {
        let properties = objectSchema.persistedProperties
        guard properties.contains(where: isEmbeddedLink) else { return values }
        return try zip(properties, values).map { property, value in
            guard isEmbeddedLink(property), let target = property.objectClassName.flatMap({ schema[$0] }) else {
                return value
            }
            return try embeddedContents(value, of: target, classIndex: try realm.classIndex(target.name))
        }
    }

    private func isEmbeddedLink(_ property: Property) -> Bool {
        property.type == .object && property.objectClassName.flatMap { schema[$0] }?.isEmbedded == true
    }

    /// A link, list or dictionary of embedded objects with each object's `contents` in place of
    /// its key. Rows are read straight from the transaction's view: one lookup an object (an
    /// accessor's would be two), as this runs for every object an import touches again.
    private func embeddedContents(_ value: Value, of target: ObjectSchema, classIndex: Int) throws -> Value {
        switch value {
        case .link(let key):
            guard let row = try realm.readable.row(classIndex: classIndex, key: key) else { return value }
            return .list(try contents(Array(row.prefix(target.persistedProperties.count)), of: target))
        case .list(let items):
            return .list(try items.map { try embeddedContents($0, of: target, classIndex: classIndex) })
        case .map(let entries):
            return .map(try entries.mapValues { try embeddedContents($0, of: target, classIndex: classIndex) })
        default: return value
        }
    }

    /// The primary key's JSON in one object, if given.
    private func primaryKeyJSON(_ json: JSONValue, pk: Property, current: CurrentClass) -> JSONValue? {
        switch json {
        case .object: return json.member(pk.name)
        case .array(let values):
            guard let column = current.primaryKeyColumn, column < values.count else { return nil }
            return values[column]
        default: return nil
        }
    }

    /// The given values of one object (a JSON object, or an array in property order), by column.
    private func fields(
        _ json: JSONValue, of current: CurrentClass, label: ObjectLabel,
        summary: inout Summary
    ) throws -> [(column: Int, json: JSONValue)] {
        let objectSchema = current.objectSchema
        switch json {
        case .object(let members):
            try JSONImport.requireDistinctNames(members, in: label.description)
            var out: [(column: Int, json: JSONValue)] = []
            out.reserveCapacity(members.count)
            for member in members {
                if let column = current.columns[member.key] {
                    out.append((column, member.value))
                    continue
                }
                // Computed backlinks are not stored; a value for one (older exports) is skipped.
                if objectSchema[member.key] != nil { continue }
                if options.ignoreUnknown {
                    summary.ignoredProperties += 1
                    continue
                }
                throw RealmError.invalidInput(
                    "\(label): unknown property '\(member.key)'; \(objectSchema.name) has \(current.persisted.map(\.name).joined(separator: ", ")) (--ignore-unknown skips unknown properties)"
                )
            }
            return out
        case .array(let values):
            let persisted = current.persisted
            guard values.count <= persisted.count else {
                throw RealmError.invalidInput(
                    "\(label): an array of \(values.count) values, but \(objectSchema.name) has \(persisted.count) stored properties (\(persisted.map(\.name).joined(separator: ", ")))"
                )
            }
            return values.enumerated().map { ($0, $1) }
        default:
            throw RealmError.invalidInput(
                "\(label): expected a JSON object or an array of values in property order; got \(json.kindName) \(json.snippet())"
            )
        }
    }

    // MARK: - Step 3

    /// The input for a link or list-of-links property, with references resolved to keys.
    private func linkInput(_ json: JSONValue, for property: Property, className: String) throws -> ObjectInput {
        if case .null = json { return .value(.null) }
        if property.type == .mixed {
            return .value(
                try MixedJSON.value(json, of: property, className: className) { target, reference in
                    try self.mixedLinkKey(target, reference, label: property.name, className: className)
                })
        }
        if property.isMap {
            var entries = [String: ObjectInput]()
            for member in try JSONImport.mapMembers(json, for: property, className: className) {
                if case .null = member.value {
                    entries[member.key] = .value(.null)
                    continue
                }
                entries[member.key] = try linkElement(
                    member.value, for: property, label: "\(property.name)['\(member.key)']", className: className)
            }
            return .dictionary(entries)
        }
        guard property.isList else {
            return try linkElement(json, for: property, label: property.name, className: className)
        }
        guard case .array(let items) = json else {
            throw RealmError.typeMismatch(
                className: className, property: property.name,
                expected: "\(property.typeDescription) (a JSON array)", got: json.snippet())
        }
        return .array(
            try items.enumerated().map { i, item in
                try linkElement(item, for: property, label: "\(property.name)[\(i)]", className: className)
            })
    }

    private func linkElement(_ json: JSONValue, for property: Property, label: String, className: String) throws
        -> ObjectInput
    {
        let targetName = property.objectClassName ?? ""
        guard let target = schema[targetName] else { throw RealmError.noSuchClass(targetName) }
        if let reference = ImportDocument.reference(json) {
            if target.isEmbedded {
                throw RealmError.invalidInput(
                    "\(className).\(label): \(json.snippet()) names an embedded \(targetName) by position; an embedded object is written inside its parent, as an object of its properties"
                )
            }
            guard reference.className == targetName else {
                throw RealmError.typeMismatch(
                    className: className, property: label, expected: "a \(targetName)",
                    got: "a reference to a \(reference.className)")
            }
            if let inInput = keys[targetName] {
                guard inInput.indices.contains(reference.index) else {
                    throw RealmError.invalidInput(
                        "\(className).\(label): the reference \(json.snippet()) names \(targetName)[\(reference.index)], but this input has \(inInput.count) \(targetName) objects"
                    )
                }
                return .value(.link(inInput[reference.index]))
            }
            let existing = try existingKeys(targetName)
            guard reference.index < existing.count else {
                throw RealmError.invalidInput(
                    "\(className).\(label): the reference \(json.snippet()) names \(targetName)[\(reference.index)], but this input has no \(targetName) objects and the database had \(existing.count) (import the \(targetName) objects first, or the whole file at once)"
                )
            }
            return .value(.link(existing[reference.index]))
        }
        switch json {
        case .object(let members):
            try JSONImport.requireDistinctNames(members, in: "\(className).\(label)")
            var dictionary: [String: ObjectInput] = [:]
            for member in members {
                guard let p = target[member.key] else {
                    // Counted as a top-level one is: the summary's warning must not miss it.
                    if options.ignoreUnknown {
                        summary.ignoredProperties += 1
                        continue
                    }
                    throw RealmError.invalidInput(
                        "\(className).\(label): unknown property '\(member.key)'; \(targetName) has \(target.persistedProperties.map(\.name).joined(separator: ", "))"
                    )
                }
                guard p.isPersisted else { continue }
                dictionary[p.name] = try nested(member.value, for: p, className: targetName)
            }
            return .dictionary(dictionary)
        case .array(let values):
            let persisted = target.persistedProperties
            guard values.count <= persisted.count else {
                throw RealmError.invalidInput(
                    "\(className).\(label): an array of \(values.count) values, but \(targetName) has \(persisted.count) stored properties"
                )
            }
            return .array(try zip(persisted, values).map { p, v in try nested(v, for: p, className: targetName) })
        default:
            return try JSONImport.element(
                fromJSON: json, for: property, className: className, propertyLabel: label, schema: schema)
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
        property.isLink
            ? try linkInput(json, for: property, className: className)
            : try JSONImport.input(fromJSON: json, for: property, className: className, schema: schema)
    }

    /// Links are set once every object exists: link properties, and Mixed values holding a `$link`.
    /// Embedded objects whose class (and theirs, at any depth) links to no object of its own
    /// are no links to wait for: they are created with their parent, so their JSON is not kept
    /// until the end of a streamed import.
    private func isLinkField(_ property: Property, _ json: JSONValue) -> Bool {
        if property.isLink { return !(property.objectClassName.map(namesNoObject) ?? false) }
        return property.type == .mixed && MixedJSON.containsLink(json)
    }

    /// Per embedded class, whether its objects (and those nested in them) hold no link to a
    /// class of its own and no Mixed value (which may link).
    private var selfContained: [String: Bool] = [:]

    private func namesNoObject(_ className: String) -> Bool {
        if let known = selfContained[className] { return known }
        var result = true
        var pending = [className]
        var seen: Set<String> = [className]
        while result, let name = pending.popLast() {
            guard let objectSchema = schema[name], objectSchema.isEmbedded else {
                result = false
                break
            }
            for property in objectSchema.persistedProperties {
                if property.type == .mixed {
                    result = false
                    break
                }
                if property.type == .object, let target = property.objectClassName, seen.insert(target).inserted {
                    pending.append(target)
                }
            }
        }
        selfContained[className] = result
        return result
    }

    /// The key of the object a Mixed `$link` names: by primary key, or by position among the
    /// input's (or, when the input holds none, the database's) objects of its class.
    private func mixedLinkKey(_ target: String, _ reference: MixedJSON.LinkReference, label: String, className: String)
        throws -> ObjectKey
    {
        guard let targetSchema = schema[target] else { throw RealmError.noSuchClass(target) }
        if targetSchema.isEmbedded {
            throw RealmError.invalidInput(
                "\(className).\(label): \(target) is an embedded class: a Mixed value cannot link to its objects")
        }
        switch reference {
        case .primaryKey(let json):
            guard let pk = targetSchema.primaryKeyProperty else {
                throw RealmError.invalidInput(
                    "\(className).\(label): \(target) has no primary key; name the object by \"index\"")
            }
            let value = try JSONImport.scalar(
                fromJSON: json, type: pk.type, className: className, propertyLabel: label,
                expected: "the primary key of a \(target) (\(pk.type.rawValue))")
            guard let object = try realm.object(ofType: target, forPrimaryKey: value) else {
                throw RealmError.invalidInput("\(className).\(label): no \(target) has the primary key \(value)")
            }
            return object.key
        case .index(let index):
            let candidates = try keys[target] ?? existingKeys(target)
            guard candidates.indices.contains(index) else {
                throw RealmError.invalidInput(
                    "\(className).\(label): the link names \(target)[\(index)], but there are \(candidates.count) \(target) objects"
                )
            }
            return candidates[index]
        }
    }

    private func failure(_ label: ObjectLabel, _ error: Error) -> Error {
        if error is Interrupted { return error }
        let text = (error as? RealmError)?.description ?? String(describing: error)
        return RealmError.invalidInput("\(label): \(text)")
    }
}

extension Realm {
    /// Inserts a new object of class `classIndex` whose values are already in their stored
    /// form, one per stored property, its primary key (if any) checked absent by the caller: the
    /// engine's bulk-insert step, without the `ObjectInput` conversion and the accessor of
    /// `create`. Throws (having changed nothing) what `create` would throw for the same row.
    fileprivate func insertImportedRow(classIndex: Int, _ values: [Value]) throws -> ObjectKey {
        try checkThread()
        guard let transaction else { throw RealmError.notInWriteTransaction }
        defer { noteMutation() }
        return try transaction.insertRow(classIndex, values, primaryKeyChecked: true)
    }
}
