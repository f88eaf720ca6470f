import Foundation
import Testing
import RealmSwift

/// `ObjectBase`, RealmSwift's name for the class every model class inherits from.
@Suite struct ObjectBaseTests {
    final class Street: EmbeddedObject {
        @Persisted var name = ""
    }
    final class House: Object {
        @Persisted var number = 0
        @Persisted var street: Street?
    }

    private func className(of object: ObjectBase) -> String { type(of: object).className() }

    @Test func everyModelObjectIsAnObjectBase() throws {
        let house = House(value: ["number": 7, "street": ["name": "Elm"]])
        #expect(className(of: house) == "House")
        #expect(className(of: try #require(house.street)) == "Street")
        let objects: [ObjectBase] = [house, try #require(house.street)]
        #expect(objects.count == 2)
    }

    @Test func anObjectChangeCarriesAnyModelObject() {
        let change: ObjectChange<ObjectBase> = .change(House(), [])
        guard case .change(let object, let properties) = change else {
            Issue.record("not a change: \(change)")
            return
        }
        #expect(object is House)
        #expect(properties.isEmpty)
    }
}
