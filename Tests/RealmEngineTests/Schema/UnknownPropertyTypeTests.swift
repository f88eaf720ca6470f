import Foundation
import Testing
@testable import RealmEngine

/// A file whose schema uses a property type this program lacks (what a program older than
/// decimal128 sees in a file with a decimal column) is refused, as written by a newer program —
/// never opened with its columns misread, never called damaged.
@Suite struct UnknownPropertyTypeTests {
    @Test func anUnknownTypeIsRefusedAsNewerNotCorrupt() throws {
        let schema = Schema([ObjectSchema(name: "Item", properties: [Property(name: "price", type: .decimal128)])])
        let payload = try SchemaNode.payload(schema, schemaVersion: 0)
        let stored = String(decoding: payload, as: UTF8.self)
        #expect(stored.contains(#""decimal128""#))
        // This program reads its own decimal columns back…
        let decoded = try payload.withUnsafeBytes { try SchemaNode.decode($0, path: "x.realm", ref: 8) }
        #expect(decoded.schema["Item"]?["price"]?.type == .decimal128)
        // …and a type it does not know is refused by name.
        let future = Array(stored.replacingOccurrences(of: #""decimal128""#, with: #""decimal256""#).utf8)
        do {
            _ = try future.withUnsafeBytes { try SchemaNode.decode($0, path: "x.realm", ref: 8) }
            Issue.record("a schema with an unknown type decoded")
        } catch let error as RealmError {
            guard case .unsupportedFormat(let message) = error else {
                Issue.record("\(error) is not .unsupportedFormat")
                return
            }
            #expect(message.contains("decimal256") && message.contains("newer program"), "\(message)")
        }
    }
}
