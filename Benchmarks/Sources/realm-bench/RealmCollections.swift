import Foundation
import RealmEngine

/// realmtui's side of the set and dictionary tasks: an `Item` class in a file of its own, its
/// tags a set property and its attributes a dictionary property, queried through the dynamic
/// API (`objects("Item").filter(predicate).count`).
extension RealmSide {
    static let itemSchema = Schema([
        ObjectSchema(name: "Item", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "tags", type: .string, isSet: true),
            Property(name: "attrs", type: .int, isMap: true),
        ]),
    ])

    static var collectionForms: [CollectionForm] { [.native] }

    private var itemsConfiguration: Realm.Configuration {
        .init(fileURL: fileURL.deletingLastPathComponent().appendingPathComponent("items.realm"),
              schema: RealmSide.itemSchema, encryptionKey: Self.encryptionKey)
    }

    private func openedItems() throws -> Realm {
        if let itemsRealm { return itemsRealm }
        let realm = try Realm(configuration: itemsConfiguration)
        itemsRealm = realm
        return realm
    }

    func insertCollections(_ data: CollectionData, form: CollectionForm) throws {
        let realm = try openedItems()
        try realm.write {
            for i in 0..<data.count {
                var attributes: [String: ObjectInput] = [:]
                for (key, value) in data.attributePairs(i) { attributes[key] = .value(.int(value)) }
                try realm.create("Item", value: .array([
                    .value(.int(Int64(i))),
                    .array(data.tagStrings(i).map { .value(.string($0)) }),
                    .dictionary(attributes),
                ]))
            }
        }
    }

    func prepareCollections(form: CollectionForm) throws {
        try close()
        _ = try openedItems()
    }

    func countItems(form: CollectionForm) throws -> Int { try openedItems().objects("Item").count }

    func countCollection(_ task: CollectionTask, form: CollectionForm) throws -> Int {
        try openedItems().objects("Item").filter(task.predicate).count
    }
}
