import Foundation
import RealmSwift
import Testing

/// `RealmEnum`: an enum declared the way Realm's older models declare one
/// (`@objc enum IntEnum: Int, RealmEnum`), without `PersistableEnum` or `CaseIterable`, stored
/// as its raw value everywhere a `PersistableEnum` is.
@Suite struct RealmEnumTests {
    enum Level: Int, RealmEnum, Codable {
        case low = 1
        case high = 3
    }

    @available(*, deprecated)  // RealmOptional, as the older models declare it
    final class Gauge: Object {
        @Persisted var level = Level.low
        @Persisted var optLevel: Level?
        @Persisted var levels: List<Level>
        @Persisted var optLevels: List<Level?>
        @Persisted var levelSet: MutableSet<Level>
        @Persisted var levelMap: Map<String, Level>
        @Persisted var optLevelMap: Map<String, Level?>
        let boxed = RealmOptional<Level>()
        let property = RealmProperty<Level?>()
    }

    @available(*, deprecated)
    @Test func storedAsItsRawValueEverywhere() throws {
        let realm = try Realm(configuration: memoryConfig([Gauge.self]))
        let schema = try #require(realm.schema["Gauge"])
        #expect(schema["level"]?.type == .int && schema["level"]?.isOptional == false)
        #expect(schema["optLevel"]?.type == .int && schema["optLevel"]?.isOptional == true)
        #expect(schema["boxed"]?.type == .int && schema["property"]?.isOptional == true)

        let gauge = Gauge()
        #expect(gauge.level == .low && gauge.optLevel == nil && gauge.boxed.value == nil)
        gauge.level = .high
        gauge.optLevel = .low
        gauge.levels.append(objectsIn: [.high, .low, .high])
        gauge.optLevels.append(objectsIn: [nil, .high])
        gauge.levelSet.insert(objectsIn: [.high, .high, .low])
        gauge.levelMap["a"] = .high
        gauge.optLevelMap["n"] = .some(nil)
        gauge.optLevelMap["l"] = .low
        gauge.boxed.value = .high
        gauge.property.value = .low
        try realm.write { realm.add(gauge) }

        let stored = try #require(realm.objects(Gauge.self).first)
        #expect(stored.level == .high && stored.optLevel == .low)
        #expect(Array(stored.levels) == [.high, .low, .high])
        #expect(Array(stored.optLevels) == [nil, .high])
        #expect(Set(stored.levelSet) == [.high, .low] && stored.levelSet.count == 2)
        #expect(stored.levelMap["a"] == .high)
        #expect(stored.optLevelMap["l"] == .some(.low) && stored.optLevelMap["n"] == .some(nil))
        #expect(stored.boxed.value == .high && stored.property.value == .low)
        // The dynamic API sees the raw value, as Realm Swift's does.
        #expect(stored["level"] as? Int == 3)
        try realm.write {
            stored["level"] = Level.low
            stored["optLevel"] = Level.high.rawValue
        }
        #expect(stored.level == .low && stored.optLevel == .high)
    }

    @available(*, deprecated)
    @Test func queriedDirectlyAndThroughRawValue() throws {
        let realm = try Realm(configuration: memoryConfig([Gauge.self]))
        try realm.write {
            for (index, level) in [Level.low, .high, .high, .low, .high].enumerated() {
                let gauge = Gauge()
                gauge.level = level
                gauge.optLevel = index % 2 == 0 ? level : nil
                gauge.levels.append(level)
                realm.add(gauge)
            }
        }
        let gauges = realm.objects(Gauge.self)
        #expect(gauges.where { $0.level == .high }.count == 3)
        #expect(gauges.where { $0.level != .high }.count == 2)
        #expect(gauges.where { $0.level.rawValue > 1 }.count == 3)
        #expect(gauges.where { $0.optLevel == nil }.count == 2)
        #expect(gauges.where { $0.optLevel == .high }.count == 2)
        #expect(gauges.where { $0.optLevel.rawValue == 1 }.count == 1)
        #expect(gauges.where { $0.levels.contains(.low) }.count == 2)
        #expect(gauges.filter("level == %@", Level.low).count == 2)
    }
}
