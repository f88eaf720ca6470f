import Foundation
import Testing
import RealmSwift

/// RealmSwift's names for what a collection holds: `RealmCollectionValue` with its
/// `PersistedType`, `_RealmCollectionValueInsideOptional`, and the markers `MinMaxType`,
/// `AddableType`, `SortableType` — generic code written against them (as realm-swift's
/// `TestValueFactory` is) compiles and works on lists, sets and maps.
@Suite struct RealmCollectionValueTests {
    enum Size: Int, PersistableEnum {
        case small = 1
        case large = 2
    }

    /// Declares no `Hashable`: as in RealmSwift, a custom persistable type is a collection
    /// value, so Swift derives it.
    struct Celsius: CustomPersistable {
        typealias PersistedType = Double
        var degrees: Double
        init(persistedValue: Double) { degrees = persistedValue }
        var persistableValue: Double { degrees }
    }

    final class Holder: Object {
        @Persisted var ints: List<Int>
        @Persisted var temperatures: List<Celsius?>
        @Persisted var optionalStrings: List<String?>
        @Persisted var sizes: MutableSet<Size>
        @Persisted var dates: Map<String, Date?>
    }

    /// Appends `values` to a list reached through `keyPath` and reads it back: needs
    /// `List<V>` for any `V: RealmCollectionValue`.
    private func roundTrip<V: RealmCollectionValue>(
        _ values: [V], in keyPath: KeyPath<Holder, List<V>>, realm: Realm
    ) throws -> [V] {
        let holder = Holder()
        try realm.write {
            realm.add(holder)
            holder[keyPath: keyPath].append(objectsIn: values)
        }
        return Array(holder[keyPath: keyPath])
    }

    private func stores<V: RealmCollectionValue, P>(_: V.Type, as _: P.Type) -> Bool {
        V.PersistedType.self == P.self
    }
    private func storesInsideOptional<V: _RealmCollectionValueInsideOptional, P>(_: V.Type, as _: P.Type) -> Bool {
        Optional<V>.PersistedType.self == P.self
    }
    private func setOf<V: RealmCollectionValue>(_ values: [V]) -> MutableSet<V> {
        let set = MutableSet<V>()
        set.insert(objectsIn: values)
        return set
    }
    private func mapOf<V: RealmCollectionValue>(_ pairs: [String: V]) -> Map<String, V> {
        let map = Map<String, V>()
        for (key, value) in pairs { map[key] = value }
        return map
    }
    private func isMinMax<V: MinMaxType>(_: V.Type) -> Bool { true }
    private func isAddable<V: AddableType>(_: V.Type) -> Bool { true }
    private func isSortable<V: SortableType>(_: V.Type) -> Bool { true }

    @Test func genericCodeStoresListsOfAnyCollectionValue() throws {
        let realm = try Realm(configuration: memoryConfig([Holder.self]))
        #expect(try roundTrip([3, 1, 2], in: \.ints, realm: realm) == [3, 1, 2])
        #expect(try roundTrip(["a", nil], in: \.optionalStrings, realm: realm) == ["a", nil])
        let temperatures = [Celsius(persistedValue: 21.5), nil]
        #expect(try roundTrip(temperatures, in: \.temperatures, realm: realm) == temperatures)
    }

    @Test func genericCodeMakesSetsAndMaps() {
        #expect(setOf([Size.small, .small, .large]).count == 2)
        let map = mapOf(["a": 1, "b": 2])
        #expect(map["b"] == 2)
        #expect(mapOf(["x": Optional<Date>.none]).count == 1)
    }

    @Test func persistedTypeIsTheStoredType() {
        #expect(stores(Int.self, as: Int.self))
        #expect(stores(Size.self, as: Int.self))
        #expect(stores(String?.self, as: String?.self))
        #expect(storesInsideOptional(Size.self, as: Int?.self))
        #expect(stores(AnyRealmValue.self, as: AnyRealmValue.self))
        #expect(stores(Celsius.self, as: Double.self))
        #expect(!stores(Celsius.self, as: Celsius.self))
        #expect(Set([Celsius(persistedValue: 1), Celsius(persistedValue: 1)]).count == 1)
    }

    @Test func markerProtocolsNameRealmSwiftsTypes() {
        #expect(isMinMax(Date.self) && isMinMax(Int?.self) && isMinMax(Decimal128.self))
        #expect(isAddable(Double.self) && isAddable(Int8?.self) && isAddable(AnyRealmValue.self))
        #expect(isSortable(String.self) && isSortable(Data?.self) && isSortable(Int16.self))
    }
}
