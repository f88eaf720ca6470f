import Foundation
import Testing
@testable import RealmEngine

@Suite struct BulkWriteTests {
    static let schema = Schema([ObjectSchema(name: "P", properties: [
        Property(name: "id", type: .int, isPrimaryKey: true),
        Property(name: "name", type: .string, isIndexed: true),
        Property(name: "age", type: .int),
        Property(name: "score", type: .double),
    ])])

    @Test func bulkUpdateAndDeleteKeepValuesAndIndexesRight() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("bulk.realm"), schema: Self.schema)
        try realm.write {
            for i in 0..<2000 {
                try realm.create("P", ["id": .int(Int64(i)), "name": .string("n\(i % 10)"), "age": .int(Int64(i % 100)), "score": .double(0)])
            }
        }
        try realm.write {
            try realm.objects("P").setValue(.value(.double(2.5)), forKey: "score")
            try realm.objects("P").filter("age < 50").setValue(.value(.string("young")), forKey: "name")
        }
        #expect(try realm.objects("P").filter("score == 2.5").count == 2000)
        #expect(try realm.objects("P").filter("name == 'young'").keys().count == 1000)
        #expect(try realm.objects("P").filter("name == 'n7'").keys().count == 100)
        _ = try realm.checkIntegrity()
        try realm.write { try realm.delete(try realm.objects("P").filter("age >= 50 AND age < 75")) }
        #expect(try realm.objects("P").count == 1500)
        #expect(try realm.objects("P").filter("age >= 50 AND age < 75").count == 0)
        #expect(try realm.object(ofType: "P", forPrimaryKey: .int(60)) == nil)
        #expect(try realm.object(ofType: "P", forPrimaryKey: .int(80))?["name"] == .string("n0"))
        _ = try realm.checkIntegrity()
        // Deleting inside the same transaction as the inserts, and deleting everything.
        try realm.write {
            for i in 5000..<5100 { try realm.create("P", ["id": .int(Int64(i)), "name": .string("new"), "age": .int(1), "score": .double(1)]) }
            try realm.delete(try realm.objects("P").filter("id >= 5050"))
        }
        #expect(try realm.objects("P").filter("name == 'new'").keys().count == 50)
        try realm.write { try realm.delete(try realm.objects("P")) }
        #expect(try realm.objects("P").count == 0)
        _ = try realm.checkIntegrity()
    }
}
