import Foundation
import Testing
@testable import RealmEngine

@Suite struct BulkWriteTests {
    static let schema = Schema([
        ObjectSchema(
            name: "P",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "name", type: .string, isIndexed: true),
                Property(name: "age", type: .int),
                Property(name: "score", type: .double),
            ])
    ])

    @Test func bulkUpdateAndDeleteKeepValuesAndIndexesRight() throws {
        let dir = TempDir()
        let realm = try Realm(path: dir.path("bulk.realm"), schema: Self.schema)
        try realm.write {
            for i in 0..<2000 {
                try realm.create(
                    "P",
                    [
                        "id": .int(Int64(i)), "name": .string("n\(i % 10)"), "age": .int(Int64(i % 100)),
                        "score": .double(0),
                    ])
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
            for i in 5000..<5100 {
                try realm.create(
                    "P", ["id": .int(Int64(i)), "name": .string("new"), "age": .int(1), "score": .double(1)])
            }
            try realm.delete(try realm.objects("P").filter("id >= 5050"))
        }
        #expect(try realm.objects("P").filter("name == 'new'").keys().count == 50)
        try realm.write { try realm.delete(try realm.objects("P")) }
        #expect(try realm.objects("P").count == 0)
        _ = try realm.checkIntegrity()
    }

    /// 5000 objects span about twenty leaves; `age` is `i % 100`.
    private func filled(_ dir: TempDir) throws -> Realm {
        let realm = try Realm(path: dir.path("bulk.realm"), schema: Self.schema)
        try realm.write {
            for i in 0..<5000 {
                try realm.create(
                    "P",
                    [
                        "id": .int(Int64(i)), "name": .string("n\(i % 10)"), "age": .int(Int64(i % 100)),
                        "score": .double(Double(i % 3)),
                    ])
            }
        }
        return realm
    }

    /// The change record the open write transaction would commit, for class 0.
    private func pending(_ realm: Realm) -> ChangeRecord.ClassRecord? {
        realm.transaction.flatMap { ChangeLog.record($0.changes, version: 0).classes[0] }
    }

    @Test func bulkUpdateRecordsExactlyTheObjectsItChanged() throws {
        let dir = TempDir()
        let realm = try filled(dir)
        try realm.write {
            // A third of the objects already have the score: their leaves are only partly changed.
            try realm.objects("P").setValue(.value(.double(1)), forKey: "score")
            let modified = pending(realm)?.modified ?? [:]
            #expect(modified.count == (0..<5000).filter { $0 % 3 != 1 }.count)
            #expect(modified.values.allSatisfy { $0 == 1 << 3 })
            #expect(modified[1] == nil && modified[0] == 1 << 3)
            // An indexed column, on some leaves only.
            try realm.objects("P").filter("age < 10").setValue(.value(.string("young")), forKey: "name")
            #expect(pending(realm)?.modified[5] == 1 << 3 | 1 << 1)
            #expect(pending(realm)?.modified[50] == 1 << 3)
        }
        #expect(try realm.objects("P").filter("score == 1").count == 5000)
        #expect(try realm.objects("P").filter("name == 'young'").keys().count == 500)
        #expect(try realm.objects("P").filter("name == 'n3'").keys().count == 450)
        #expect(
            try realm.objects("P").filter("age == 42").keys().allSatisfy { k in
                try realm.object(ofType: "P", key: k)?["score"] == .double(1)
            })
        _ = try realm.checkIntegrity()
        // Setting what is already there changes nothing and records nothing.
        try realm.write {
            try realm.objects("P").setValue(.value(.double(1)), forKey: "score")
            #expect(pending(realm)?.modified.isEmpty ?? true)
        }
    }

    @Test func bulkDeleteAcrossManyLeavesKeepsIndexesAndChangeSetsRight() throws {
        let dir = TempDir()
        let realm = try filled(dir)
        try realm.write {
            try realm.objects("P").filter("age >= 90").setValue(.value(.double(7)), forKey: "score")
            try realm.delete(try realm.objects("P").filter("age >= 50"))
            let record = pending(realm)
            #expect(record?.deleted.count == 2500)
            #expect(record?.deleted == (0..<5000).filter { $0 % 100 >= 50 }.map(Int64.init))
            // Objects modified and then deleted are reported as deleted only.
            #expect(record?.modified.isEmpty ?? true)
        }
        #expect(try realm.objects("P").count == 2500)
        _ = try realm.checkIntegrity()
        for i in stride(from: 0, to: 5000, by: 7) {
            let object = try realm.object(ofType: "P", forPrimaryKey: .int(Int64(i)))
            #expect((object != nil) == (i % 100 < 50), "id \(i)")
        }
        #expect(try realm.objects("P").filter("name == 'n4'").keys().count == 250)
        // Deleting the rest leaves empty trees and indexes that still take new objects.
        try realm.write {
            try realm.delete(try realm.objects("P").filter("id < 2500"))
            try realm.delete(try realm.objects("P"))
            try realm.create("P", ["id": .int(3), "name": .string("back"), "age": .int(1), "score": .double(0)])
        }
        _ = try realm.checkIntegrity()
        #expect(try realm.object(ofType: "P", forPrimaryKey: .int(3))?["name"] == .string("back"))
        #expect(try realm.objects("P").filter("name == 'back'").keys().count == 1)
    }

    @Test func creationFastPathAgreesWithCoerce() throws {
        let values: [Value] = [
            .bool(true), .int(-3), .double(1.5), .float(2), .string("x"), .date(Timestamp(seconds: 9)),
            .null, .data(Data([1])), .string(String(repeating: "a", count: Limits.maxValueBytes + 1)),
        ]
        for type in [PropertyType.bool, .int, .int8, .double, .float, .string, .date, .data] {
            let p = Property(name: "p", type: type)
            for v in values {
                guard let fast = WriteTransaction.alreadyStored(v, as: type) else { continue }
                #expect(try p.coerce(v, className: "C") == fast, "\(type) \(v.kindName)")
            }
        }
        #expect(WriteTransaction.alreadyStored(.int(300), as: .int8) == nil)
        #expect(
            WriteTransaction.alreadyStored(
                .string(String(repeating: "a", count: Limits.maxValueBytes + 1)), as: .string) == nil)
    }
}
