import Foundation
import Testing
import RealmSwift

/// `@Persisted var price: Decimal128` (required, optional, in a list): stored and read back
/// after reopening the file, queried with `filter` and `where`, summed and averaged exactly.
@Suite struct PersistedDecimal128Tests {
    final class DItem: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var price: Decimal128
        @Persisted var discount: Decimal128?
        @Persisted var history: List<Decimal128>
    }

    static func d(_ text: String) -> Decimal128 { Decimal128(text) ?? .nan }

    @Test func storedQueriedAndSummedExactly() throws {
        let config = try fileConfig([DItem.self])
        defer { removeFolder(of: config) }
        do {
            let realm = try Realm(configuration: config)
            try realm.write {
                for (id, price) in ["0.1", "0.2", "10.50"].enumerated() {
                    let item = DItem()
                    item.id = id
                    item.price = Self.d(price)
                    item.discount = id == 0 ? nil : Self.d("0.05")
                    item.history.append(objectsIn: [Self.d("1.5"), 2])
                    realm.add(item)
                }
            }
        }
        let realm = try Realm(configuration: config)
        let items = realm.objects(DItem.self).sorted(byKeyPath: "id")
        #expect(items.map(\.price.description) == ["1E-1", "2E-1", "10.50"])
        #expect(items.first?.discount == nil)
        #expect(items.last?.discount == Self.d("0.050"))
        #expect(Array(items.last?.history ?? List()) == [Self.d("1.5"), Decimal128(2)])
        #expect(items.sum(of: \.price) == Self.d("10.8"))
        #expect(items.sum(of: \.price).description == "10.80")
        #expect(items.average(of: \.price) == Self.d("3.6"))
        #expect(items.min(of: \.price) == Self.d("0.1"))
        #expect(items.max(of: \.price) == Self.d("10.5"))
        #expect(items.filter("price > 0.1").count == 2)
        #expect(items.filter("price == 0.3").isEmpty)
        #expect(items.filter("price < $0", Self.d("0.2")).map(\.id) == [0])
        #expect(items.where { $0.price >= Self.d("0.2") }.map(\.id) == [1, 2])
        #expect(items.where { $0.discount == nil }.map(\.id) == [0])
        #expect(items.filter("history.@sum == 3.5").count == 3)
        // 0.1 + 0.2 == 0.3, exactly, in Swift too.
        #expect(Self.d("0.1") + Self.d("0.2") == Self.d("0.3"))
        let literal: Decimal128 = 0.1
        #expect(literal == Self.d("0.1"))
    }
}
