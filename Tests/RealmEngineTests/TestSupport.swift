import Foundation
@testable import RealmEngine

/// A fresh temporary folder per test, removed when the value is released.
final class TempDir {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("realmtui-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

enum Fixtures {
    /// Person (pk id) ↔ Dog, with lists, optional scalars and backlinks.
    static let people = Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string, isIndexed: true),
            Property(name: "age", type: .int, isOptional: true),
            Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
            Property(name: "best", type: .object, objectClassName: "Dog"),
        ]),
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "age", type: .int, defaultValue: .int(1)),
            Property(name: "tags", type: .string, isList: true),
            Property(name: "owners", type: .linkingObjects, objectClassName: "Person", linkOriginPropertyName: "dogs"),
        ]),
    ])
}
