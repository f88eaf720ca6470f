import Foundation
import Testing
import RealmSwift

/// `RealmProperty<T?>` and the deprecated `RealmOptional<T>` in models declared the older way
/// (realm-swift's `RealmPropertyTests.testObject`, rewritten; and the seeds' `RealmOptional<Int>`).
@Suite struct RealmPropertyTests {
    final class RealmPropertyModel: Object {
        let optionalIntValue = RealmProperty<Int?>()
        let optionalInt8Value = RealmProperty<Int8?>()
        let optionalInt16Value = RealmProperty<Int16?>()
        let optionalInt32Value = RealmProperty<Int32?>()
        let optionalInt64Value = RealmProperty<Int64?>()
        let optionalFloatValue = RealmProperty<Float?>()
        let optionalDoubleValue = RealmProperty<Double?>()
        let optionalBoolValue = RealmProperty<Bool?>()
        let anyValue = RealmProperty<AnyRealmValue>()
        @Persisted var int = 0
    }

    @available(*, deprecated)
    final class OldStyleDog: Object {
        @Persisted var name = ""
        let age = RealmOptional<Int>()
        let weight = RealmOptional<Double>(12.5)
    }

    /// The life of one property: unmanaged, added (nil kept), set inside a write, read back by
    /// a fresh object of the Realm.
    private func roundTrip<T: Equatable>(
        _ keyPath: KeyPath<RealmPropertyModel, RealmProperty<T?>>, _ value: T,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let o = RealmPropertyModel()
        o[keyPath: keyPath].value = value
        #expect(o[keyPath: keyPath].value == value, sourceLocation: sourceLocation)
        o[keyPath: keyPath].value = nil
        #expect(o[keyPath: keyPath].value == nil, sourceLocation: sourceLocation)
        let realm = try Realm(configuration: memoryConfig([RealmPropertyModel.self]))
        try realm.write { realm.add(o) }
        #expect(o[keyPath: keyPath].value == nil, sourceLocation: sourceLocation)
        try realm.write { o[keyPath: keyPath].value = value }
        #expect(o[keyPath: keyPath].value == value, sourceLocation: sourceLocation)
        let read = try #require(realm.objects(RealmPropertyModel.self).first)
        #expect(read[keyPath: keyPath].value == value, sourceLocation: sourceLocation)
    }

    @Test func everyOptionalNumberRoundTrips() throws {
        try roundTrip(\.optionalIntValue, 123_456)
        try roundTrip(\.optionalInt8Value, 127 as Int8)
        try roundTrip(\.optionalInt16Value, 32766 as Int16)
        try roundTrip(\.optionalInt32Value, 2_147_483_647 as Int32)
        try roundTrip(\.optionalInt64Value, 0x7FFF_FFFF_FFFF_FFFF as Int64)
        try roundTrip(\.optionalFloatValue, 12345.6789 as Float)
        try roundTrip(\.optionalDoubleValue, 12345.6789 as Double)
        try roundTrip(\.optionalBoolValue, true)
    }

    @Test func theSchemaHasOneOptionalColumnPerProperty() throws {
        let schema = RealmPropertyModel.sharedSchema()
        #expect(
            schema.properties.map(\.name) == [
                "optionalIntValue", "optionalInt8Value", "optionalInt16Value", "optionalInt32Value",
                "optionalInt64Value", "optionalFloatValue", "optionalDoubleValue",
                "optionalBoolValue", "anyValue", "int",
            ])
        #expect(schema["optionalInt16Value"]?.type == .int16)
        #expect(schema["optionalInt16Value"]?.isOptional == true)
        #expect(schema["optionalBoolValue"]?.type == .bool)
        #expect(schema["int"]?.isOptional == false)
    }

    @Test func aManagedValueIsSeenByEveryInstanceAndQueried() throws {
        let realm = try Realm(configuration: memoryConfig([RealmPropertyModel.self]))
        let o = RealmPropertyModel()
        o.optionalIntValue.value = 5
        o.anyValue.value = .string("hello")
        try realm.write { realm.add(o) }
        let other = try #require(realm.objects(RealmPropertyModel.self).first)
        #expect(other.optionalIntValue.value == 5)
        #expect(other.anyValue.value == .string("hello"))
        try realm.write { other.optionalIntValue.value = 7 }
        #expect(o.optionalIntValue.value == 7)
        #expect(realm.objects(RealmPropertyModel.self).filter("optionalIntValue == 7").count == 1)
        #expect(realm.objects(RealmPropertyModel.self).filter("optionalIntValue == nil").count == 0)
        try realm.write { o.optionalIntValue.value = nil }
        #expect(realm.objects(RealmPropertyModel.self).filter("optionalIntValue == nil").count == 1)
        #expect(o.value(forKey: "optionalIntValue") == nil)
        // A box read after its object is released (the object is a temporary here).
        try realm.write { realm.objects(RealmPropertyModel.self).first?.optionalIntValue.value = 9 }
        #expect(realm.objects(RealmPropertyModel.self).first?.optionalIntValue.value == 9)
    }

    @Test func createAndValueInitialisersFillTheBoxes() throws {
        let realm = try Realm(configuration: memoryConfig([RealmPropertyModel.self]))
        let unmanaged = RealmPropertyModel(value: ["optionalDoubleValue": 2.5, "int": 3])
        #expect(unmanaged.optionalDoubleValue.value == 2.5)
        try realm.write {
            realm.create(RealmPropertyModel.self, value: ["optionalInt8Value": 9, "optionalBoolValue": NSNull()])
        }
        let read = try #require(realm.objects(RealmPropertyModel.self).first)
        #expect(read.optionalInt8Value.value == 9)
        #expect(read.optionalBoolValue.value == nil)
        // Too big for an Int8: refused with the write, not truncated.
        #expect(throws: RealmError.self) {
            try realm.write { realm.create(RealmPropertyModel.self, value: ["optionalInt8Value": 300]) }
        }
    }

    @available(*, deprecated)
    @Test func realmOptionalWorksAsRealmPropertyOfAnOptional() throws {
        let realm = try Realm(configuration: memoryConfig([OldStyleDog.self]))
        let dog = OldStyleDog()
        #expect(dog.age.value == nil)
        #expect(dog.weight.value == 12.5)
        dog.age.value = 3
        try realm.write { realm.add(dog) }
        let read = try #require(realm.objects(OldStyleDog.self).first)
        #expect(read.age.value == 3)
        #expect(read.weight.value == 12.5)
        try realm.write { read.age.value = nil }
        #expect(dog.age.value == nil)
        #expect(OldStyleDog.sharedSchema()["age"]?.isOptional == true)
    }
}
