import Foundation
import Testing
@testable import RealmEngine

/// The conformance harness, run through the real storage engine (an in-memory Realm per suite).
final class EngineConformanceDatabase: ConformanceDatabase {
    let realm: Realm

    init(realm: Realm) { self.realm = realm }

    static func make(schema: Schema) throws -> Self {
        Self(realm: try Realm(configuration: .init(inMemoryIdentifier: UUID().uuidString, schema: schema)))
    }

    func create(className: String, values: [Value]) throws -> ObjectKey {
        try realm.write {
            try realm.create(className, value: .array(values.map { .value($0) })).key
        }
    }

    func value(className: String, key: ObjectKey, property: String) throws -> Value {
        guard let o = try realm.object(ofType: className, key: key) else { throw RealmError.invalidatedObject }
        return try o.value(forKey: property)
    }

    func query(className: String, _ text: String, arguments: [Value]) throws -> [ObjectKey] {
        try realm.objects(className).filter(text, arguments: arguments).keys()
    }
}

@Suite struct EngineQueryConformanceTests {
    @Test(.enabled(if: ConformanceRunner.isPresent, "../shared/conformance/query-tests.json is absent"))
    func realmJSQueryTestsThroughTheEngine() throws {
        let url = ConformanceRunner.fileURL
        let json = try JSONDecoder().decode(JSON.self, from: Data(contentsOf: url))
        let outcome = try ConformanceRunner.run(json, using: EngineConformanceDatabase.self)
        for failure in outcome.failures { Issue.record("\(failure)") }
        print("query conformance through the engine: \(outcome.passed) passed, \(outcome.failures.count) failed")
        #expect(outcome.passed == 209)
    }
}
