/// Creating, finding and deleting objects by class name (the dynamic API).
extension Realm {
    /// Every object of a class, live.
    /// Refused for an embedded class: its objects are reached through their parents.
    public func objects(_ className: String) throws -> Results {
        try checkThread()
        let c = try classIndex(className)
        try refuseEmbedded(c, "listed or queried as a class of their own")
        return Results(realm: self, classIndex: c)
    }

    /// Alias of `objects(_:)`, as in RealmSwift's dynamic API.
    public func dynamicObjects(_ className: String) throws -> Results { try objects(className) }

    /// The object of a class with this primary key, or nil.
    public func object(ofType className: String, forPrimaryKey key: Value) throws -> DynamicObject? {
        try accessor(ofType: className, forPrimaryKey: key).map(DynamicObject.init)
    }

    /// The accessor of the object of a class with this primary key, or nil (the typed layer
    /// makes its own object around it).
    package func accessor(ofType className: String, forPrimaryKey key: Value) throws -> ObjectAccessor? {
        try checkThread()
        let c = try classIndex(className)
        if let foreign {
            let table = foreign.version.layout.tables[c]
            guard let pkColumn = table.primaryKeyColumn else {
                throw RealmError.invalidOperation("\(className) has no primary key")
            }
            let value = try table.columns[pkColumn].coerce(key, className: className)
            guard let k = try foreign.version.object(classIndex: c, primaryKey: value) else { return nil }
            return ObjectAccessor(realm: self, classIndex: c, key: k)
        }
        // The engine's own version, read concretely (a lookup costs no protocol dispatch).
        let view = try readView
        // The layout knows the primary key's column (no scan of the schema's properties).
        guard let pkColumn = view.layout.tables[c].primaryKeyColumn else {
            throw RealmError.invalidOperation("\(className) has no primary key")
        }
        let value = try view.layout.tables[c].columns[pkColumn].coerce(key, className: className)
        guard let k = try view.object(classIndex: c, primaryKey: value) else { return nil }
        return ObjectAccessor(realm: self, classIndex: c, key: k)
    }

    /// The object of a class with this key, or nil.
    public func object(ofType className: String, key: ObjectKey) throws -> DynamicObject? {
        try checkThread()
        let c = try classIndex(className)
        return try readable.contains(classIndex: c, key: key)
            ? DynamicObject(realm: self, classIndex: c, key: key) : nil
    }

    /// In a write transaction, the key of the object of class `classIndex` whose primary key is
    /// `value` (stored form), if any: a bulk insert in key order skips the index lookup.
    func existingObjectKey(classIndex: Int, primaryKey value: Value) throws -> ObjectKey? {
        try writeTransaction().existingObject(classIndex, primaryKey: value)
    }

    private func writeTransaction() throws -> WriteTransaction {
        try checkThread()
        guard let t = transaction else { throw RealmError.notInWriteTransaction }
        return t
    }

    /// Creates an object from a dictionary, an array in property order, or nested input; with an
    /// update policy, an object with the same primary key is updated with the given values only.
    @discardableResult
    public func create(_ className: String, value: ObjectInput, update: UpdatePolicy = .error) throws -> DynamicObject {
        DynamicObject(try createAccessor(className, value: value, update: update))
    }

    /// `create(_:value:update:)` answering the new object's accessor (the typed layer makes its
    /// own object around it).
    package func createAccessor(_ className: String, value: ObjectInput, update: UpdatePolicy = .error) throws
        -> ObjectAccessor
    {
        let t = try writeTransaction()
        let c = try classIndex(className)
        try refuseEmbedded(c, "created on their own (assign one to its parent's property instead)")
        if try update != .error && readView.schema.objectSchemas[c].primaryKeyProperty == nil {
            throw RealmError.primaryKey("\(className) has no primary key, so objects cannot be updated by one")
        }
        defer { noteMutation() }
        let key = try t.createObject(c, value, update: update)
        return ObjectAccessor(realm: self, classIndex: c, key: key)
    }

    /// Creates an object from a dictionary of values.
    @discardableResult
    public func create(_ className: String, _ values: [String: Value], update: UpdatePolicy = .error) throws
        -> DynamicObject
    {
        try create(className, value: .dictionary(values.mapValues { .value($0) }), update: update)
    }

    /// Deletes an object; links to it become nil and it leaves every list.
    public func delete(_ object: DynamicObject) throws {
        let t = try writeTransaction()
        defer { noteMutation() }
        try t.deleteObject(object.classIndex, object.key)
    }

    /// Deletes every object of the results.
    public func delete(_ results: Results) throws {
        let t = try writeTransaction()
        if let test = scanTest(deleting: results) {
            // A filter on the class's own columns is tested leaf by leaf as the leaves are edited.
            let done: Bool
            do { done = try t.deleteObjects(results.classIndex, matching: test) } catch {
                noteMutation()
                throw error
            }
            if done {
                noteMutation()
                return
            }
        }
        let keys = try results.keys()
        defer { noteMutation() }
        try t.deleteObjects(results.classIndex, keys: keys)
    }

    /// The compiled test of results that are the objects of a class matching one predicate on its
    /// own scalar columns, none of them indexed (an index lookup finds few objects faster than a
    /// scan), with no sort, distinct or limit: the results a delete can find while it edits.
    private func scanTest(deleting results: Results) -> ColumnTest? {
        guard let query = results.query.onlyPredicate else { return nil }
        guard !query.hasOrdering, let test = query.columnTest else { return nil }
        let properties = described.schema.objectSchemas[results.classIndex].persistedProperties
        guard test.columns.allSatisfy({ properties.indices.contains($0) && !properties[$0].isIndexed }) else {
            return nil
        }
        return test
    }

    /// Deletes every object of a class.
    public func deleteAll(_ className: String) throws {
        try delete(try objects(className))
    }

    /// Throws `invalidOperation` when class `c` is embedded: its objects cannot be `what`.
    private func refuseEmbedded(_ c: Int, _ what: String) throws {
        let objectSchema =
            if let foreign { foreign.version.schema.objectSchemas[c] } else { try readView.schema.objectSchemas[c] }
        if objectSchema.isEmbedded {
            throw RealmError.invalidOperation(
                "\(objectSchema.name) is an embedded class: its objects cannot be \(what)")
        }
    }

    /// Deletes every object of every class.
    public func deleteAll() throws {
        let t = try writeTransaction()
        defer { noteMutation() }
        // The engine's internal classes (sync state and outbox) are not the user's objects.
        for (c, objectSchema) in try readView.schema.objectSchemas.enumerated()
        where !SyncClasses.isInternal(objectSchema.name) {
            for k in try t.state.keys(classIndex: c) where try t.state.contains(classIndex: c, key: k) {
                try t.deleteObject(c, k)
            }
        }
    }
}
