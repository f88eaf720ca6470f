/// A parsed JSON document that keeps what Foundation's `JSONSerialization` loses:
///
/// - **key order** — a realm-js schema's properties and an import file's classes are ordered by
///   the file; `[String: Any]` is not.
/// - **booleans apart from numbers** — `true` is `.bool`, `1` is `.number`; on Linux an
///   `NSNumber` from `JSONSerialization` can be read as either.
/// - **the number's text** — `1` and `1.0` differ (an int column accepts the first), and integers
///   beyond 2^53 keep every digit.
public indirect enum JSONValue: Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    /// A number as written in the source (always valid JSON number syntax).
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in source order. Duplicate keys are kept; `member(_:)` returns the last.
    case object([JSONMember])

    /// A number from an integer.
    public static func integer(_ v: Int64) -> JSONValue { .number(String(v)) }

    /// A number from a double; nil for nan and infinities (JSON cannot spell them).
    public static func double(_ v: Double) -> JSONValue? {
        v.isFinite ? .number(JSONValue.numberText(v)) : nil
    }

    /// The members of an object, or nil.
    public var objectMembers: [JSONMember]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The value of the last member named `key` of an object, or nil.
    public func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The elements of an array, or nil.
    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { items } else { nil }
    }

    /// The string, or nil.
    public var stringValue: String? {
        if case .string(let s) = self { s } else { nil }
    }

    /// The boolean, or nil (numbers are never booleans).
    public var boolValue: Bool? {
        if case .bool(let b) = self { b } else { nil }
    }

    /// Whether the number is written without fraction or exponent (`12`, `-3`).
    public var isIntegerLiteral: Bool {
        guard case .number(let text) = self else { return false }
        return !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
    }

    /// The number as an exact `Int64`: an integer literal in range, or a literal with fraction or
    /// exponent whose value is a whole number in range (`1e3`, `2.0`). Nil otherwise.
    public var int64Value: Int64? {
        guard case .number(let text) = self else { return nil }
        if let v = Int64(text) { return v }
        if isIntegerLiteral { return nil }  // out of range
        guard let d = Double(text), d.rounded() == d,
            d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0
        else { return nil }
        return Int64(d)
    }

    /// The number as a `Double` (nearest), or nil.
    public var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }

    /// A short kind name for messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Compact JSON text.
    public var description: String { jsonText() }

    /// The JSON text of this value; `pretty` indents nested arrays and objects by two spaces.
    /// Non-ASCII text is written as UTF-8, not `\u` escapes.
    public func jsonText(pretty: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty)
        writer.write(self)
        return writer.output
    }

    /// At most `limit` characters of the JSON text, for error messages.
    public func snippet(limit: Int = 40) -> String {
        let text = jsonText()
        return text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// The shortest text that reads back as the same double, in JSON syntax (`1.0`, `1e-07`).
    static func numberText(_ v: Double) -> String {
        // Swift's description is the shortest round-tripping form and always valid JSON for finite
        // values ("1.0", "1e-07", "5e-324", "-0.0").
        "\(v)"
    }
}

/// One member of a JSON object.
public struct JSONMember: Equatable, Sendable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
