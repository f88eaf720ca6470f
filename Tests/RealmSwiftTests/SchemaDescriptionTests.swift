import Foundation
import Testing
import RealmSwift

/// `Schema.description` and `ObjectSchema.description` in Realm's layout (realm-swift's
/// SchemaTests.testDescription and ObjectSchemaTests.testDescription, rewritten for a small model).
@Suite struct SchemaDescriptionTests {
    final class DescribedDog: Object {
        @Persisted(primaryKey: true) var id: Int8 = 0
        @Persisted var tags: MutableSet<String>
        @Persisted var owner: DescribedOwner?
    }

    final class DescribedOwner: Object {
        @Persisted(indexed: true) var name = ""
        @Persisted var nick: String?
        @Persisted var scores: Map<String, Double>
        @Persisted var dogs: List<DescribedDog>
    }

    private let ownerText = """
        DescribedOwner {
        \tname {
        \t\ttype = string;
        \t\tcolumnName = name;
        \t\tindexed = YES;
        \t\tisPrimary = NO;
        \t\tarray = NO;
        \t\tset = NO;
        \t\tdictionary = NO;
        \t\toptional = NO;
        \t}
        \tnick {
        \t\ttype = string;
        \t\tcolumnName = nick;
        \t\tindexed = NO;
        \t\tisPrimary = NO;
        \t\tarray = NO;
        \t\tset = NO;
        \t\tdictionary = NO;
        \t\toptional = YES;
        \t}
        \tscores {
        \t\ttype = double;
        \t\tcolumnName = scores;
        \t\tindexed = NO;
        \t\tisPrimary = NO;
        \t\tarray = NO;
        \t\tset = NO;
        \t\tdictionary = YES;
        \t\toptional = NO;
        \t}
        \tdogs {
        \t\ttype = object;
        \t\tobjectClassName = DescribedDog;
        \t\tlinkOriginPropertyName = (null);
        \t\tcolumnName = dogs;
        \t\tindexed = NO;
        \t\tisPrimary = NO;
        \t\tarray = YES;
        \t\tset = NO;
        \t\tdictionary = NO;
        \t\toptional = NO;
        \t}
        }
        """

    @Test func anObjectSchemaListsEachPropertysAttributes() throws {
        let realm = try Realm(configuration: memoryConfig([DescribedDog.self, DescribedOwner.self]))
        let owner = try #require(realm.schema["DescribedOwner"])
        #expect(owner.description == ownerText)
        let dog = try #require(realm.schema["DescribedDog"])
        #expect(
            dog.description.contains(
                "\tid {\n\t\ttype = int;\n\t\tcolumnName = id;\n\t\tindexed = YES;\n\t\tisPrimary = YES;"))
        #expect(
            dog.description.contains(
                "\ttags {\n\t\ttype = string;\n\t\tcolumnName = tags;\n\t\tindexed = NO;\n\t\tisPrimary = NO;\n\t\tarray = NO;\n\t\tset = YES;"
            ))
    }

    @Test func aSchemaListsItsClassesByNameIndentedOneLevel() throws {
        let realm = try Realm(configuration: memoryConfig([DescribedOwner.self, DescribedDog.self]))
        let text = realm.schema.description
        #expect(text.hasPrefix("Schema {\n\tDescribedDog {\n\t\tid {\n"))
        #expect(text.contains("\n\tDescribedOwner {\n\t\tname {\n\t\t\ttype = string;"))
        #expect(text.hasSuffix("\t}\n}"))
    }
}
