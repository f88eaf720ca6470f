import Foundation
import RealmSwift
import Testing

/// The class side of Realm Swift's schema API as its own tests use it: `Dog.className()` (a
/// method, as in Realm Swift), `ObjectSchema.objectClass` compared with `===`, and
/// `Property.isArray` / `columnName`.
@Suite struct ObjectClassTests {
    class ClassedDog: Object {
        @Persisted(primaryKey: true) var name = ""
        @Persisted var tags: List<String>
        @Persisted var friends: MutableSet<ClassedDog>
    }

    final class ClassedPuppy: ClassedDog {}

    final class RenamedCat: Object {
        @Persisted var name = ""
        override class func _realmObjectName() -> String? { "Cat" }
    }

    @Test func classNameIsAMethodAndDispatchesOnTheMetatype() {
        #expect(ClassedDog.className() == "ClassedDog")
        #expect(RenamedCat.className() == "Cat")
        let type: Object.Type = ClassedPuppy.self
        #expect(type.className() == "ClassedPuppy")
        #expect(ClassedDog().objectSchema.className == ClassedDog.className())
    }

    @Test func objectClassIsTheSwiftClass() throws {
        let realm = try Realm(configuration: memoryConfig([ClassedDog.self, ClassedPuppy.self, RenamedCat.self]))
        let dogSchema = try #require(realm.schema["ClassedDog"])
        // Compared outside #expect: its expansion passes each operand as a generic value, and
        // a metatype is not an AnyObject here, so it would pick the standard `===`.
        let isDog = dogSchema.objectClass === ClassedDog.self
        let isPuppy = dogSchema.objectClass === ClassedPuppy.self
        let notPuppy = dogSchema.objectClass !== ClassedPuppy.self
        let isCat = try #require(realm.schema["Cat"]).objectClass === RenamedCat.self
        let unmanagedPuppy = ClassedPuppy().objectSchema.objectClass === ClassedPuppy.self
        #expect(isDog && !isPuppy && notPuppy && isCat && unmanagedPuppy)
    }

    @Test func objectClassOfAClassWithoutASwiftClassIsDynamicObject() throws {
        let config = try fileConfig([ClassedDog.self, ClassedPuppy.self])
        defer { removeFolder(of: config) }
        // A file whose class no Swift class of this program is stored as.
        let path = try #require(config.fileURL).path
        do {
            _ = try RealmEngine.Realm(
                path: path,
                schema: Schema([
                    ObjectSchema(name: "UnclassedParrot", properties: [Property(name: "name", type: .string)])
                ]))
        }
        let realm = try Realm(configuration: config)
        let parrot = try #require(realm.schema["UnclassedParrot"])
        let isDynamic = parrot.objectClass === RealmSwift.DynamicObject.self
        #expect(isDynamic)
    }

    @Test func propertiesAnswerRealmSwiftsNames() throws {
        let schema = ClassedDog().objectSchema
        let tags = try #require(schema["tags"])
        #expect(tags.isArray && !tags.isSet && !tags.isMap && tags.columnName == "tags")
        let friends = try #require(schema["friends"])
        #expect(!friends.isArray && friends.isSet && friends.objectClassName == "ClassedDog")
        #expect(schema.primaryKeyProperty?.name == "name")
    }
}
