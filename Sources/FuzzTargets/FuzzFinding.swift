import Foundation
import RealmEngine

/// A finding that is not a crash of its own: an undetected corruption (a mutated file that
/// `Realm.check(path:)` accepts but that reads differently from its original) or a contradiction
/// between the integrity check and reading. The fuzz drivers abort on it; the replay tests fail.
public struct FuzzFinding: Error, CustomStringConvertible {
    /// What went wrong, in words.
    public var description: String

    /// A finding described by `description`.
    public init(_ description: String) {
        self.description = description
    }
}

/// Reads everything a reader can see of the file at `path`, opened read-only: the schema, every
/// class's objects and values, and one query per class. Returns it as text so two files can be
/// compared; throws what the engine throws.
public func readEverything(path: String) throws -> String {
    var out: String? = ""
    try readEverything(path: path, into: &out)
    return out ?? ""
}

/// What `readEverything(path:)` reads, appending its text to `out` only when it is given: the
/// file target's whole-file inputs only ask whether reading succeeds, and turning every value
/// into text (`Array.description`) was an eighth of their time. The engine does the same reads
/// either way.
func readEverything(path: String, into out: inout String?) throws {
    var configuration = Realm.Configuration.file(path, readOnly: true)
    configuration.createIfMissing = false
    let realm = try Realm(configuration: configuration)
    out?.append("version \(realm.version), schema version \(realm.schemaVersion)\n\(realm.schema)\n")
    for objectSchema in realm.schema.objectSchemas {
        let results = try realm.objects(objectSchema.name)
        let count = try results.checkedCount()
        out?.append("class \(objectSchema.name): \(count)\n")
        for key in try results.keys() {
            guard let object = try realm.object(ofType: objectSchema.name, key: key) else {
                throw FuzzFinding("\(objectSchema.name) key \(key) listed by keys() but not found")
            }
            let values = try object.values()
            out?.append("  \(key): \(values)\n")
        }
        let query = queryText(for: objectSchema)
        let keys = try results.filter(query).keys()
        out?.append("  \(query): \(keys)\n")
    }
}

/// A query that binds on any class: a comparison on its first integer or string property.
private func queryText(for objectSchema: ObjectSchema) -> String {
    for property in objectSchema.properties where !property.isList {
        if property.type.isInteger { return "\(property.name) > 1" }
        if property.type == .string { return "\(property.name) CONTAINS 'a'" }
    }
    return "TRUEPREDICATE"
}
