import Foundation
import Testing
import RealmSwift

/// RealmSwift's names of property types (`.any` for `AnyRealmValue`, `.UUID` for `UUID`) name
/// the same types as ours, so a `switch property.type` written for RealmSwift ports unchanged.
@Suite struct PropertyTypeNamesTests {
    final class NamedTypes: Object {
        @Persisted var anything: AnyRealmValue
        @Persisted var identifier: UUID
        @Persisted var count = 0
    }

    /// What a RealmSwift test's `switch` over property types answers.
    static func label(_ type: PropertyType) -> String {
        switch type {
        case .any: "any"
        case .UUID: "UUID"
        case .int: "int"
        default: "other"
        }
    }

    @Test func realmSwiftNamesMatchTheSchema() {
        let schema = NamedTypes.sharedSchema()
        #expect(schema["anything"]?.type == .any)
        #expect(schema["identifier"]?.type == .UUID)
        #expect(PropertyType.any == .mixed)
        #expect(PropertyType.UUID == .uuid)
        #expect(schema.properties.map { Self.label($0.type) } == ["any", "UUID", "int"])
    }
}
