import Foundation
import RealmEngine

/// The JSON import target: what `realmtui import` does (`ImportDocument.groups(fromJSON:)`, then
/// `DataImport.run`) into a new in-memory Realm of a given schema. When the first byte is `[`,
/// the input is a bare array for the schema's first class (`import --class`).
public final class ImportFuzzer {
    private let schema: Schema
    private var counter = 0

    /// A target importing into Realms of `schema`.
    public init(schema: Schema) {
        self.schema = schema
    }

    /// Runs one input; every error the import throws is an expected answer. A successful import
    /// must leave each class's count readable.
    public func run(_ data: Data) throws {
        counter += 1
        let className = data.first == UInt8(ascii: "[") ? schema.objectSchemas.first?.name : nil
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "fuzz-import-\(getpid())-\(counter)", schema: schema))
        let groups: [ImportDocument.Group]
        do {
            groups = try ImportDocument.groups(fromJSON: data, className: className, schema: schema)
        } catch {
            _ = "\(error)"
            return
        }
        let before = realm.version
        let imported = Result { try DataImport(realm: realm, options: .init(ignoreUnknown: counter % 2 == 0)).run(groups) }
        if case .failure = imported, realm.version != before {
            throw FuzzFinding("a failed import changed the database (version \(before) → \(realm.version))")
        }
        for objectSchema in schema.objectSchemas {
            _ = try realm.objects(objectSchema.name).checkedCount()
        }
    }
}
