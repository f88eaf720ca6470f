import Foundation
import RealmEngine

/// The JSON import target: what `realmtui import` does (`ImportDocument.groups(fromJSON:)`, then
/// `DataImport.run`) into a new in-memory Realm of a given schema. When the first byte is `[`,
/// the input is a bare array for the schema's first class (`import --class`).
///
/// Every input imports into an empty database of the schema at the same version, but not every
/// input pays for creating one (four fifths of the time before): the JSON is parsed before a
/// database is touched, and an empty in-memory file is kept (`PreparedMemoryRealm`) and reused — each
/// input opens a new `Realm` instance on it — until an import commits to it.
public final class ImportFuzzer {
    private let schema: Schema
    private let empty: PreparedMemoryRealm

    /// A target importing into Realms of `schema`.
    public init(schema: Schema) {
        self.schema = schema
        empty = PreparedMemoryRealm(prefix: "fuzz-import", schema: schema) { _ in }
    }

    /// Runs one input; every error the import throws is an expected answer. A successful import
    /// must leave each class's count readable. Unknown properties are ignored for inputs of even
    /// length (a property of the input, so that replaying one input repeats its run).
    public func run(_ data: Data) throws {
        let className = data.first == UInt8(ascii: "[") ? schema.objectSchemas.first?.name : nil
        let groups: [ImportDocument.Group]
        do {
            groups = try ImportDocument.groups(fromJSON: data, className: className, schema: schema)
        } catch {
            _ = "\(error)"
            return
        }
        let realm = try empty.open()
        defer { empty.release() }
        let before = realm.version
        let imported = Result {
            try DataImport(realm: realm, options: .init(ignoreUnknown: data.count % 2 == 0)).run(groups)
        }
        if case .failure = imported, realm.version != before {
            throw FuzzFinding("a failed import changed the database (version \(before) → \(realm.version))")
        }
        for objectSchema in schema.objectSchemas {
            _ = try realm.objects(objectSchema.name).checkedCount()
        }
    }
}
