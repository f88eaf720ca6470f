import Foundation
import Testing
import RealmSwift

/// The typed layer of the type walk (`CLITests/TypeWalkTests` walks the others): every
/// `PropertyType` as a `@Persisted` property in every shape — required, optional, `List`,
/// `MutableSet`, `Map` — written through the typed API, read back after a reopen, found by
/// `where {}`, and stored exactly as the dynamic API reads it. `swiftName(of:)` switches over
/// `PropertyType` with no `default:`, so a new type fails to compile until it is walked here.
/// Embedded objects, links of an embedded class (not a `PropertyType` of their own), walk
/// the shapes a link can have but a set (Realm has no sets of embedded objects).
@Suite struct TypedTypeWalkTests {
    final class WalkTarget: Object {
        @Persisted(primaryKey: true) var name = ""
        @Persisted(originProperty: "objectList") var walks: LinkingObjects<TypedWalk>
    }

    final class WalkPlace: EmbeddedObject {
        @Persisted var name = ""
    }

    final class TypedWalk: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var bool = false
        @Persisted var boolOpt: Bool?
        @Persisted var boolList: List<Bool>
        @Persisted var boolSet: MutableSet<Bool>
        @Persisted var boolMap: Map<String, Bool>
        @Persisted var int = 0
        @Persisted var intOpt: Int?
        @Persisted var intList: List<Int>
        @Persisted var intSet: MutableSet<Int>
        @Persisted var intMap: Map<String, Int>
        @Persisted var int8: Int8 = 0
        @Persisted var int8Opt: Int8?
        @Persisted var int8List: List<Int8>
        @Persisted var int8Set: MutableSet<Int8>
        @Persisted var int8Map: Map<String, Int8>
        @Persisted var int16: Int16 = 0
        @Persisted var int16Opt: Int16?
        @Persisted var int16List: List<Int16>
        @Persisted var int16Set: MutableSet<Int16>
        @Persisted var int16Map: Map<String, Int16>
        @Persisted var int32: Int32 = 0
        @Persisted var int32Opt: Int32?
        @Persisted var int32List: List<Int32>
        @Persisted var int32Set: MutableSet<Int32>
        @Persisted var int32Map: Map<String, Int32>
        @Persisted var float: Float = 0
        @Persisted var floatOpt: Float?
        @Persisted var floatList: List<Float>
        @Persisted var floatSet: MutableSet<Float>
        @Persisted var floatMap: Map<String, Float>
        @Persisted var double = 0.0
        @Persisted var doubleOpt: Double?
        @Persisted var doubleList: List<Double>
        @Persisted var doubleSet: MutableSet<Double>
        @Persisted var doubleMap: Map<String, Double>
        @Persisted var string = ""
        @Persisted var stringOpt: String?
        @Persisted var stringList: List<String>
        @Persisted var stringSet: MutableSet<String>
        @Persisted var stringMap: Map<String, String>
        @Persisted var date = Date(timeIntervalSince1970: 0)
        @Persisted var dateOpt: Date?
        @Persisted var dateList: List<Date>
        @Persisted var dateSet: MutableSet<Date>
        @Persisted var dateMap: Map<String, Date>
        @Persisted var data = Data()
        @Persisted var dataOpt: Data?
        @Persisted var dataList: List<Data>
        @Persisted var dataSet: MutableSet<Data>
        @Persisted var dataMap: Map<String, Data>
        @Persisted var objectId = ObjectId("000000000000000000000000")
        @Persisted var objectIdOpt: ObjectId?
        @Persisted var objectIdList: List<ObjectId>
        @Persisted var objectIdSet: MutableSet<ObjectId>
        @Persisted var objectIdMap: Map<String, ObjectId>
        @Persisted var uuid = UUID(uuidString: "00000000-0000-4000-8000-000000000000") ?? UUID()
        @Persisted var uuidOpt: UUID?
        @Persisted var uuidList: List<UUID>
        @Persisted var uuidSet: MutableSet<UUID>
        @Persisted var uuidMap: Map<String, UUID>
        @Persisted var decimal128: Decimal128 = 0
        @Persisted var decimal128Opt: Decimal128?
        @Persisted var decimal128List: List<Decimal128>
        @Persisted var decimal128Set: MutableSet<Decimal128>
        @Persisted var decimal128Map: Map<String, Decimal128>
        // Mixed is optional by nature: no "Opt" form.
        @Persisted var mixed: AnyRealmValue
        @Persisted var mixedList: List<AnyRealmValue>
        @Persisted var mixedSet: MutableSet<AnyRealmValue>
        @Persisted var mixedMap: Map<String, AnyRealmValue>
        @Persisted var objectOpt: WalkTarget?
        @Persisted var objectList: List<WalkTarget>
        @Persisted var objectSet: MutableSet<WalkTarget>
        @Persisted var objectMap: Map<String, WalkTarget?>
        @Persisted var embeddedOpt: WalkPlace?
        @Persisted var embeddedList: List<WalkPlace>
        @Persisted var embeddedMap: Map<String, WalkPlace?>
    }

    /// The Swift name stem of `type`'s properties above (`linkingObjects` on `WalkTarget`).
    static func swiftName(of type: PropertyType) -> String {
        switch type {
        case .bool: "bool"
        case .int: "int"
        case .int8: "int8"
        case .int16: "int16"
        case .int32: "int32"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .decimal128: "decimal128"
        case .object: "object"
        case .mixed: "mixed"
        case .linkingObjects: "walks"
        }
    }

    @Test func everyTypeInEveryShapeHasItsPropertyAndStorage() throws {
        let schema = TypedWalk.sharedSchema()
        for type in PropertyType.allCases {
            let stem = Self.swiftName(of: type)
            if type == .linkingObjects {
                #expect(WalkTarget.sharedSchema().properties.first { $0.name == stem }?.type == .linkingObjects)
                continue
            }
            let shapes: [(String, (Property) -> Bool)] = [
                (stem, { !$0.isOptional && !$0.isList && !$0.isMap }),
                (stem + "Opt", { $0.isOptional && !$0.isList && !$0.isMap }),
                (stem + "List", { $0.isList && !$0.isSet }),
                (stem + "Set", { $0.isSet }),
                (stem + "Map", { $0.isMap }),
            ]
            for (name, shape) in shapes
            where !(type == .object && name == stem) && !(type == .mixed && name == stem + "Opt") {
                if type == .mixed && name == stem {
                    #expect(
                        schema.properties.first { $0.name == name }.map { $0.type == .mixed && $0.isOptional } == true)
                    continue
                }
                let property = try #require(schema.properties.first { $0.name == name }, "\(name) is missing")
                #expect(property.type == type && shape(property), "\(name): \(property.typeDescription)")
            }
        }
    }

    static let date = Date(timeIntervalSince1970: 1_714_979_289.123)
    static let objectId = ObjectId("65f0a0000000000000000002")
    static let uuid = UUID(uuidString: "00000000-0000-4000-8000-000000000002") ?? UUID()
    static let decimal: Decimal128 = "12.50"

    /// Writes `high` into the five shapes of one type and reads them back.
    func walk<T: _Persistable & _RealmElement & _RealmMapValue & Equatable>(
        _ object: TypedWalk, _ high: T, _ required: ReferenceWritableKeyPath<TypedWalk, T>,
        _ optional: ReferenceWritableKeyPath<TypedWalk, T?>, _ list: KeyPath<TypedWalk, List<T>>,
        _ set: KeyPath<TypedWalk, MutableSet<T>>, _ map: KeyPath<TypedWalk, Map<String, T>>
    ) {
        object[keyPath: required] = high
        object[keyPath: optional] = high
        object[keyPath: list].append(high)
        object[keyPath: set].insert(high)
        object[keyPath: map]["k"] = high
    }

    func check<T: _Persistable & _RealmElement & _RealmMapValue & Equatable>(
        _ object: TypedWalk, _ high: T, _ required: KeyPath<TypedWalk, T>,
        _ optional: KeyPath<TypedWalk, T?>, _ list: KeyPath<TypedWalk, List<T>>,
        _ set: KeyPath<TypedWalk, MutableSet<T>>, _ map: KeyPath<TypedWalk, Map<String, T>>, _ name: String
    ) {
        #expect(object[keyPath: required] == high, "\(name)")
        #expect(object[keyPath: optional] == high, "\(name)Opt")
        #expect(Array(object[keyPath: list]) == [high], "\(name)List")
        #expect(Array(object[keyPath: set]) == [high], "\(name)Set")
        #expect(object[keyPath: map]["k"] == high, "\(name)Map")
    }

    @Test func everyTypeInEveryShapeIsWrittenReadBackAndQueried() throws {
        let config = try fileConfig([TypedWalk.self, WalkTarget.self])
        defer { removeFolder(of: config) }
        do {
            let realm = try Realm(configuration: config)
            try realm.write {
                let object = TypedWalk()
                object.id = 1
                walk(object, true, \.bool, \.boolOpt, \.boolList, \.boolSet, \.boolMap)
                walk(object, 42, \.int, \.intOpt, \.intList, \.intSet, \.intMap)
                walk(object, Int8(42), \.int8, \.int8Opt, \.int8List, \.int8Set, \.int8Map)
                walk(object, Int16(42), \.int16, \.int16Opt, \.int16List, \.int16Set, \.int16Map)
                walk(object, Int32(42), \.int32, \.int32Opt, \.int32List, \.int32Set, \.int32Map)
                walk(object, Float(1.5), \.float, \.floatOpt, \.floatList, \.floatSet, \.floatMap)
                walk(object, 2.5, \.double, \.doubleOpt, \.doubleList, \.doubleSet, \.doubleMap)
                walk(object, "walk", \.string, \.stringOpt, \.stringList, \.stringSet, \.stringMap)
                walk(object, Self.date, \.date, \.dateOpt, \.dateList, \.dateSet, \.dateMap)
                walk(object, Data([0, 1, 2]), \.data, \.dataOpt, \.dataList, \.dataSet, \.dataMap)
                walk(object, Self.objectId, \.objectId, \.objectIdOpt, \.objectIdList, \.objectIdSet, \.objectIdMap)
                walk(object, Self.uuid, \.uuid, \.uuidOpt, \.uuidList, \.uuidSet, \.uuidMap)
                walk(
                    object, Self.decimal, \.decimal128, \.decimal128Opt, \.decimal128List, \.decimal128Set,
                    \.decimal128Map)
                let target = WalkTarget()
                target.name = "b"
                object.objectOpt = target
                object.objectList.append(target)
                object.objectSet.insert(target)
                object.objectMap["k"] = target
                object.mixed = .string("walk")
                object.mixedList.append(.int(42))
                object.mixedSet.insert(.double(2.5))
                let other = WalkTarget()
                other.name = "c"
                object.mixedMap["k"] = .object(other)
                object.embeddedOpt = WalkPlace(value: ["name": "p"])
                object.embeddedList.append(WalkPlace(value: ["name": "p"]))
                object.embeddedMap["k"] = WalkPlace(value: ["name": "p"])
                realm.add(object)
                realm.add(TypedWalk(value: ["id": 2]))
            }
        }
        let realm = try Realm(configuration: config)
        let object = try #require(realm.object(ofType: TypedWalk.self, forPrimaryKey: 1))
        check(object, true, \.bool, \.boolOpt, \.boolList, \.boolSet, \.boolMap, "bool")
        check(object, 42, \.int, \.intOpt, \.intList, \.intSet, \.intMap, "int")
        check(object, Int8(42), \.int8, \.int8Opt, \.int8List, \.int8Set, \.int8Map, "int8")
        check(object, Int16(42), \.int16, \.int16Opt, \.int16List, \.int16Set, \.int16Map, "int16")
        check(object, Int32(42), \.int32, \.int32Opt, \.int32List, \.int32Set, \.int32Map, "int32")
        check(object, Float(1.5), \.float, \.floatOpt, \.floatList, \.floatSet, \.floatMap, "float")
        check(object, 2.5, \.double, \.doubleOpt, \.doubleList, \.doubleSet, \.doubleMap, "double")
        check(object, "walk", \.string, \.stringOpt, \.stringList, \.stringSet, \.stringMap, "string")
        check(object, Self.date, \.date, \.dateOpt, \.dateList, \.dateSet, \.dateMap, "date")
        check(object, Data([0, 1, 2]), \.data, \.dataOpt, \.dataList, \.dataSet, \.dataMap, "data")
        check(
            object, Self.objectId, \.objectId, \.objectIdOpt, \.objectIdList, \.objectIdSet, \.objectIdMap, "objectId")
        check(object, Self.uuid, \.uuid, \.uuidOpt, \.uuidList, \.uuidSet, \.uuidMap, "uuid")
        check(
            object, Self.decimal, \.decimal128, \.decimal128Opt, \.decimal128List, \.decimal128Set, \.decimal128Map,
            "decimal128")
        #expect(object.objectOpt?.name == "b" && object.objectList.map(\.name) == ["b"])
        #expect(object.objectSet.map(\.name) == ["b"] && object.objectMap["k"]??.name == "b")
        #expect(realm.object(ofType: WalkTarget.self, forPrimaryKey: "b")?.walks.map(\.id) == [1])
        #expect(
            object.mixed == .string("walk") && Array(object.mixedList) == [.int(42)]
                && Array(object.mixedSet) == [.double(2.5)])
        #expect(object.mixedMap["k"]?.object(WalkTarget.self)?.name == "c")
        #expect(
            object.embeddedOpt?.name == "p" && object.embeddedList.map(\.name) == ["p"]
                && object.embeddedMap["k"]??.name == "p")

        // where {} finds the object by each type's value (the other object holds defaults).
        let walks = realm.objects(TypedWalk.self)
        let found: [(String, Results<TypedWalk>)] = [
            ("bool", walks.where { $0.bool == true && $0.boolOpt == true }),
            ("int", walks.where { $0.int == 42 && $0.intList.contains(42) }),
            ("int8", walks.where { $0.int8 == 42 && $0.int8Set.contains(42) }),
            ("int16", walks.where { $0.int16Opt == 42 }),
            ("int32", walks.where { $0.int32Map["k"] == 42 }),
            ("float", walks.where { $0.float > 1 && $0.floatOpt == 1.5 }),
            ("double", walks.where { $0.double == 2.5 && $0.doubleList.contains(2.5) }),
            ("string", walks.where { $0.string == "walk" && $0.stringSet.contains("walk") }),
            ("date", walks.where { $0.date == Self.date && $0.dateOpt == Self.date }),
            ("data", walks.where { $0.data == Data([0, 1, 2]) }),
            ("objectId", walks.where { $0.objectId == Self.objectId && $0.objectIdList.contains(Self.objectId) }),
            ("uuid", walks.where { $0.uuidOpt == Self.uuid }),
            ("decimal128", walks.where { $0.decimal128 == Self.decimal && $0.decimal128Map["k"] == Self.decimal }),
            ("object", walks.where { $0.objectOpt.name == "b" }),
            ("embedded", walks.where { $0.embeddedOpt.name == "p" && $0.embeddedList.name == "p" }),
            ("mixed", walks.where { $0.mixed == .string("walk") }),
        ]
        for (name, results) in found {
            #expect(results.map(\.id) == [1], "\(name)")
        }

        // The typed layer stores exactly what the dynamic API reads.
        let engine = try RealmEngine.Realm(path: try #require(config.fileURL).path)
        let stored = try #require(try engine.object(ofType: "TypedWalk", forPrimaryKey: .int(1)))
        #expect(try stored.value(forKey: "int8") == .int(42))
        #expect(try stored.value(forKey: "decimal128") == .decimal128(Self.decimal))
        #expect(try stored.value(forKey: "stringSet") == .list([.string("walk")]))
        #expect(try stored.value(forKey: "doubleMap") == .map(["k": .double(2.5)]))
        #expect(try stored.value(forKey: "dateOpt") == .date(try Timestamp(Self.date)))
        #expect(engine.schema["WalkPlace"]?.isEmbedded == true)
        #expect(try stored.linkedObject(forKey: "embeddedOpt")?.value(forKey: "name") == .string("p"))
        #expect(try stored.list(forKey: "embeddedList").object(at: 0).value(forKey: "name") == .string("p"))
    }
}
