import Foundation

/// Opening a file with a newer schema: the migration runner.
///
/// The migration is one write transaction. Every object is read into memory with its key, the
/// block (if any) edits the new values, then the transaction frees the old tables, switches to
/// the new schema's layout and writes every object back under its key (`copyRow`), with the
/// hidden backlink columns recomputed from the links. Keys never change, so links survive; a
/// class the new schema does not mention is kept as it is (unless the block deleted its data).
/// Nothing is written until the block returned and every value fits the new schema: a
/// migration that throws leaves the file exactly as it was.
extension Realm {
    /// Whether opening with `wanted` migrates the file at `stored` (false: it opens as it is):
    /// a higher schema version, or changes Realm applies without one
    /// (`onlyNonMigrationChanges`). Throws `schemaMismatch` for a stored version newer than the
    /// requested one, and for any other difference (or any difference a read-only file would
    /// need written), naming the first.
    func needsMigration(from stored: Snapshot, to wanted: Schema) throws -> Bool {
        if stored.schemaVersion > configuration.schemaVersion {
            throw RealmError.schemaMismatch(
                "\(shared.path) has schema version \(stored.schemaVersion), newer than the requested \(configuration.schemaVersion)"
            )
        }
        let matches = wanted.objectSchemas.allSatisfy { stored.schema[$0.name] == $0 }
        if matches && (configuration.schemaVersion == stored.schemaVersion || shared.isReadOnly) { return false }
        if !shared.isReadOnly
            && (configuration.schemaVersion > stored.schemaVersion
                || Realm.onlyNonMigrationChanges(stored: stored.schema, wanted: wanted))
        {
            return true
        }
        throw RealmError.schemaMismatch(
            "\(shared.path): the stored schema differs from the requested one: "
                + Realm.describeDifference(stored: stored.schema, wanted: wanted))
    }

    /// Whether `wanted` differs from `stored` only in what Realm changes without a migration:
    /// classes the file does not have yet, and indexes added or removed.
    static func onlyNonMigrationChanges(stored: Schema, wanted: Schema) -> Bool {
        func withoutIndexes(_ c: ObjectSchema) -> ObjectSchema {
            var plain = c
            for i in plain.properties.indices { plain.properties[i].isIndexed = false }
            return plain
        }
        return wanted.objectSchemas.allSatisfy { w in
            stored[w.name].map { withoutIndexes($0) == withoutIndexes(w) } ?? true
        }
    }

    /// Migrates the file to `wanted` in one write transaction.
    func migrate(to wanted: Schema) throws {
        try beginWrite()
        do {
            guard let t = transaction else { throw RealmError.notInWriteTransaction }
            let old = t.base
            let targetVersion = configuration.schemaVersion
            // Another instance may have migrated while this one waited for the write lock:
            // decide again on the newest version. Migrating on regardless rewrote a file
            // another instance had just taken to a higher version back to this one's classes.
            guard try needsMigration(from: old, to: wanted) else {
                cancelWrite()
                return
            }
            let migration = Migration(
                oldSchema: old.schema, newSchema: Realm.migratedSchema(old: old.schema, wanted: wanted))
            try Realm.load(old, into: migration)
            // As in Realm, the block runs only when the version rises (not for added classes).
            if old.schemaVersion < targetVersion { try configuration.migrationBlock?(migration, old.schemaVersion) }
            if let problem = migration.problems.first { throw RealmError.invalidInput("migration: \(problem)") }
            let unconverted = migration.unconvertedValues
            if let first = unconverted.first, !migration.allowsLossyTypeChanges {
                let count = unconverted.count == 1 ? "1 value does" : "\(unconverted.count) values do"
                throw RealmError.invalidInput(
                    "migration: \(first) (\(count) not convert in all; set the property in the migration block, "
                        + "or set Migration.allowsLossyTypeChanges to store the default)")
            }
            // A class whose data the block deleted stays in the schema (empty): class indices of
            // instances open on the old version stay valid after they refresh.
            let newSchema = migration.newSchema
            try newSchema.validate()
            let layout = SchemaLayout(newSchema)
            var rows = try Realm.rows(of: migration, layout: layout)
            try Realm.settleEmbeddedObjects(&rows, layout: layout, oldSchema: old.schema)
            try t.replaceSchema(
                newSchema, schemaVersion: targetVersion, rows: rows,
                nextKeys: newSchema.objectSchemas.map { migration.nextKeys[$0.name, default: 0] })
            try commitWrite()
        } catch {
            cancelWrite()
            throw error
        }
    }

    /// The file's classes in their order (changed ones replaced by the wanted form), then the
    /// wanted classes the file does not have: existing class indices stay the same.
    /// A class the wanted schema leaves out keeps its properties, but not a linking-objects
    /// property whose link the wanted schema removed or turned elsewhere.
    static func migratedSchema(old: Schema, wanted: Schema) -> Schema {
        var classes = old.objectSchemas.map { wanted[$0.name] ?? $0 }
        classes += wanted.objectSchemas.filter { old[$0.name] == nil }
        let linked = Schema(classes)
        for (i, c) in classes.enumerated() where wanted[c.name] == nil {
            classes[i].properties.removeAll { p in
                guard p.type == .linkingObjects, let origin = p.objectClassName, let via = p.linkOriginPropertyName
                else { return false }
                let link = linked[origin]?[via]
                return link?.type != .object || link?.objectClassName != c.name
            }
        }
        return Schema(classes)
    }

    /// Reads every object of `old` into the migration: old values, and new values carried
    /// over by name: as they are where the property kept its type, converted where the type
    /// changed (a value that does not convert starts at the default and is recorded in the
    /// object's `unconverted`).
    static func load(_ old: Snapshot, into migration: Migration) throws {
        for (ci, oldClass) in old.schema.objectSchemas.enumerated() {
            let newClass = migration.newSchema[oldClass.name]
            let persisted = oldClass.persistedProperties
            var list: [MigrationObject] = []
            for key in try old.keys(classIndex: ci) {
                guard let row = try old.row(classIndex: ci, key: key) else { continue }
                var oldValues: [String: Value] = [:]
                for (i, p) in persisted.enumerated() where i < row.count { oldValues[p.name] = row[i] }
                let oldObject = MigrationObject(className: oldClass.name, key: key, values: oldValues, old: nil)
                let newObject = MigrationObject(
                    className: oldClass.name, key: key, values: Migration.defaults(newClass), old: oldObject)
                newObject.storedPrimaryKey = oldClass.primaryKeyProperty.flatMap { oldValues[$0.name] }
                var newValues = newObject.values
                for p in newClass?.persistedProperties ?? [] {
                    guard let was = oldClass[p.name], let v = oldValues[p.name] else { continue }
                    guard was.type == p.type, was.isList == p.isList, was.isSet == p.isSet, was.isMap == p.isMap,
                        was.objectClassName == p.objectClassName
                    else {
                        // The type changed (an integer's width too: 300 does not fit an int8).
                        if let converted = Migration.converted(v, from: was, to: p) {
                            newValues[p.name] = converted
                        } else {
                            newObject.unconverted[p.name] = UnconvertedValue(
                                object: newObject, property: p.name, value: v, from: was, to: p)
                        }
                        continue
                    }
                    if v.isNull && !p.isOptional && p.type != .object { continue }
                    if p.isList, !p.isOptional, was.isOptional, p.type != .object, case .list(let items) = v {
                        // A list made required: nil elements take the element type's default (Realm's rule).
                        let zero = Migration.zero(p.type)
                        newValues[p.name] = .list(items.map { $0.isNull ? zero : $0 })
                        continue
                    }
                    if p.isMap, !p.isOptional, was.isOptional, case .map(let entries) = v {
                        let zero = Migration.zero(p.type)
                        newValues[p.name] = .map(entries.mapValues { $0.isNull ? zero : $0 })
                        continue
                    }
                    newValues[p.name] = v
                }
                newObject.values = newValues
                list.append(newObject)
            }
            migration.objects[oldClass.name] = list
            migration.nextKeys[oldClass.name] = old.tables[ci].nextKey
        }
    }

    /// The stored rows (persisted values, then backlink columns) of every class of `layout`,
    /// checked against the new schema.
    static func rows(of migration: Migration, layout: SchemaLayout) throws -> [[(ObjectKey, [Value])]] {
        let classes = layout.schema.objectSchemas
        var live: [Set<ObjectKey>] = []
        var result: [[(ObjectKey, [Value])]] = []
        var position: [[ObjectKey: Int]] = []
        for (ci, c) in classes.enumerated() {
            let objects = (migration.objects[c.name] ?? []).filter { !$0.isDeleted }.sorted { $0.key < $1.key }
            live.append(Set(objects.map(\.key)))
            var rows: [(ObjectKey, [Value])] = []
            var seenKeys: Set<Value> = []
            let table = layout.tables[ci]
            for o in objects {
                if let problem = o.invalid.first { throw RealmError.invalidInput("migration: \(problem)") }
                var row: [Value] = []
                for p in c.persistedProperties {
                    row.append(try p.coerce(o.values[p.name] ?? Migration.defaultValue(p), className: c.name))
                }
                if let pk = table.primaryKeyColumn, !seenKeys.insert(row[pk]).inserted {
                    throw RealmError.primaryKey("migration: two \(c.name) objects have the primary key \(row[pk])")
                }
                row += Array(repeating: Value.list([]), count: table.columns.count - table.persistedCount)
                rows.append((o.key, row))
            }
            result.append(rows)
            position.append(Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.0, $0) }))
        }
        // Links to objects that no longer exist are dropped; backlinks are recomputed.
        for (ci, c) in classes.enumerated() {
            for (col, p) in c.persistedProperties.enumerated() where p.type == .object {
                guard let (target, backlinkColumn) = layout.linkTargets[.init(classIndex: ci, column: col)] else {
                    continue
                }
                for r in result[ci].indices {
                    let origin = result[ci][r].0
                    func keep(_ k: ObjectKey) -> Bool {
                        guard live[target].contains(k), let tr = position[target][k] else { return false }
                        if case .list(var back) = result[target][tr].1[backlinkColumn] {
                            back.append(.link(origin))
                            result[target][tr].1[backlinkColumn] = .list(back)
                        }
                        return true
                    }
                    switch result[ci][r].1[col] {
                    case .link(let k): if !keep(k) { result[ci][r].1[col] = .null }
                    case .list(let items):
                        result[ci][r].1[col] = .list(
                            items.filter { if case .link(let k) = $0 { keep(k) } else { false } })
                    case .map(let entries):
                        // A dictionary keeps its keys; a value whose object is gone becomes nil.
                        result[ci][r].1[col] = .map(
                            entries.mapValues { if case .link(let k) = $0, keep(k) { $0 } else { .null } })
                    default: break
                    }
                }
            }
        }
        // Mixed links to a class or an object that no longer exists become nil (in place).
        let classIndex = Dictionary(classes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        for place in layout.mixedColumns {
            for r in result[place.classIndex].indices {
                result[place.classIndex][r].1[place.column] = result[place.classIndex][r].1[place.column]
                    .keepingTypedLinks { link in
                        classIndex[link.className].map { live[$0].contains(link.key) } ?? false
                    }
            }
        }
        return result
    }
}
