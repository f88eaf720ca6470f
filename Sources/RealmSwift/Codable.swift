import Foundation

// Codable models, as RealmSwift has them: `class Dog: Object, Codable { @Persisted var name = "" }`
// decodes through the `Persisted` wrappers (the compiler synthesizes `init(from:)`: an
// unmanaged object), and encodes through `Object.encode(to:)`, which the conformance takes
// from `Object` instead of synthesizing it. Unlike RealmSwift, whose synthesized encoding
// throws for a managed object, a managed object encodes what its Realm holds.

/// A property name as a coding key.
public struct PropertyCodingKey: CodingKey {
    public var stringValue: String
    public var intValue: Int? { nil }
    public init(_ name: String) { stringValue = name }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

extension Object {
    /// What `encode(to:)` does: every `@Persisted` property of an `Encodable` type under its
    /// name, read from the Realm for a managed object (a deleted one is an error, never its
    /// defaults). Linking objects are left out (they are computed from the other side).
    final func encodePersistedProperties(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: PropertyCodingKey.self)
        if hasAccessor, isInvalidated {
            throw EncodingError.invalidValue(
                self,
                .init(
                    codingPath: encoder.codingPath,
                    debugDescription: "\(Self.className()) was deleted from its Realm: nothing to encode"))
        }
        let base = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
        for field in info.fields where !field.access.isLinkingObjects {
            _ = try field.access.encode(
                self, base + field.offset, name: field.name, key: field.swiftName, into: &container)
        }
    }
}

extension Persisted: Decodable where Value: Decodable {
    /// The value decoded (a `null` for an optional), as an unmanaged object's property.
    public init(from decoder: Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self))
    }
}

extension Persisted: Encodable where Value: Encodable {
    /// The property's value as an unmanaged object holds it (`Object.encode(to:)` reads a
    /// managed object's values from its Realm).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(storage)
    }
}

extension KeyedDecodingContainer {
    /// An optional property missing from the input decodes as nil, as RealmSwift's does (a
    /// required one missing is an error).
    public func decode<V: _Persistable & Decodable & ExpressibleByNilLiteral>(
        _ type: Persisted<V>.Type, forKey key: Key
    ) throws -> Persisted<V> {
        try decodeIfPresent(type, forKey: key) ?? Persisted<V>(wrappedValue: nil)
    }
}

extension List: Decodable where Element: Decodable {
    /// An unmanaged list of the decoded elements (a JSON array).
    public convenience init(from decoder: Decoder) throws {
        self.init()
        try decodeElements(Element.self, from: decoder, into: append)
    }
}

extension List: Encodable where Element: Encodable {
    /// The elements in order (a JSON array).
    public func encode(to encoder: Encoder) throws { try encodeElements(self, to: encoder) }
}

extension MutableSet: Decodable where Element: Decodable {
    /// An unmanaged set of the decoded elements (a JSON array; repeats are one element).
    public convenience init(from decoder: Decoder) throws {
        self.init()
        try decodeElements(Element.self, from: decoder, into: insert)
    }
}

extension MutableSet: Encodable where Element: Encodable {
    /// The elements (a JSON array).
    public func encode(to encoder: Encoder) throws { try encodeElements(self, to: encoder) }
}

/// Each element of an array, given to `add` (a list's append, a set's insert).
private func decodeElements<Element: Decodable>(
    _ type: Element.Type, from decoder: Decoder, into add: (Element) -> Void
) throws {
    var container = try decoder.unkeyedContainer()
    while !container.isAtEnd { add(try container.decode(Element.self)) }
}

/// A list's or set's elements as an array.
private func encodeElements<S: Sequence>(_ elements: S, to encoder: Encoder) throws where S.Element: Encodable {
    var container = encoder.unkeyedContainer()
    for element in elements { try container.encode(element) }
}

extension Map: Decodable where Key == String, Value: Decodable {
    /// An unmanaged dictionary of the decoded entries (a JSON object).
    public convenience init(from decoder: Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: PropertyCodingKey.self)
        for key in container.allKeys { self[key.stringValue] = try container.decode(Value.self, forKey: key) }
    }
}

extension Map: Encodable where Key == String, Value: Encodable {
    /// The entries (a JSON object).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: PropertyCodingKey.self)
        for (key, value) in self { try container.encode(value, forKey: PropertyCodingKey(key)) }
    }
}
