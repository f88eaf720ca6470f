import Foundation
import RealmEngine

/// The query target: parses and binds the input as a predicate on a fixed small schema (every
/// scalar type, optional and list properties, links and backlinks) and evaluates it (count, keys,
/// a sort on the result).
public final class QueryFuzzer {
    private let realm: Realm

    /// The schema the queries bind against.
    public static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "id", type: .int, isPrimaryKey: true),
                Property(name: "name", type: .string, isIndexed: true),
                Property(name: "note", type: .string, isOptional: true),
                Property(name: "flag", type: .bool),
                Property(name: "small", type: .int8, isOptional: true),
                Property(name: "ratio", type: .double),
                Property(name: "weight", type: .float, isOptional: true),
                Property(name: "when", type: .date, isOptional: true),
                Property(name: "blob", type: .data, isOptional: true),
                Property(name: "oid", type: .objectId, isOptional: true),
                Property(name: "uid", type: .uuid, isOptional: true),
                Property(name: "tags", type: .string, isList: true),
                Property(name: "scores", type: .int, isList: true),
                Property(name: "parent", type: .object, isOptional: true, objectClassName: "Item"),
                Property(name: "children", type: .object, isList: true, objectClassName: "Item"),
                Property(
                    name: "parents", type: .linkingObjects, objectClassName: "Item", linkOriginPropertyName: "children"),
            ])
    ])

    /// A target over a new in-memory Realm holding a few objects.
    public init() throws {
        realm = try Realm(
            configuration: .init(inMemoryIdentifier: "fuzz-query-\(UUID().uuidString)", schema: Self.schema))
        try realm.write {
            var previous: DynamicObject?
            for i in 0..<6 {
                let item = try realm.create(
                    "Item",
                    [
                        "id": .int(Int64(i)), "name": .string(["", "a", "Ab", "大黄", "abc", "z\u{0}z"][i]),
                        "note": i % 2 == 0 ? .null : .string("n\(i)"), "flag": .bool(i % 3 == 0),
                        "small": i == 4 ? .null : .int(Int64(i * 40 - 100)),
                        "ratio": .double([0, -1.5, .nan, 1e300, 2, -0.0][i]),
                        "when": i == 1 ? .null : .date(Timestamp(seconds: Int64(i) * 86_400, nanoseconds: 0)),
                        "blob": .data(Data(repeating: UInt8(i), count: i)),
                    ])
                for j in 0..<i {
                    try item.list(forKey: "tags").append(.value(.string("t\(j)")))
                    try item.list(forKey: "scores").append(.value(.int(Int64(j * i))))
                }
                if let previous {
                    try item.setValue(.link(previous.key), forKey: "parent")
                    try previous.list(forKey: "children").append(.value(.link(item.key)))
                }
                previous = item
            }
        }
    }

    /// Runs one input: errors from the parser, the binder and the evaluator are expected answers.
    public func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        do {
            let results = try realm.objects("Item").filter(text)
            let keys = try results.keys()
            _ = try results.checkedCount()
            _ = try results.sorted(byKeyPath: "name").keys()
            for key in keys.prefix(3) { _ = try realm.object(ofType: "Item", key: key)?.values() }
        } catch {
            _ = "\(error)"
        }
    }
}
