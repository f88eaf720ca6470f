import Foundation

/// Values are stored in the schema (default values) as `{"t": kind, "v": payload}`.
extension Value: Codable {
    private enum CodingKeys: String, CodingKey { case t, v }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .t)
        switch kind {
        case "nil": self = .null
        case "bool": self = .bool(try c.decode(Bool.self, forKey: .v))
        case "int": self = .int(try c.decode(Int64.self, forKey: .v))
        case "float": self = .float(try c.decode(Float.self, forKey: .v))
        case "double": self = .double(try c.decode(Double.self, forKey: .v))
        case "string": self = .string(try c.decode(String.self, forKey: .v))
        case "date":
            let parts = try c.decode([Int64].self, forKey: .v)
            // Nanoseconds outside 0..<1e9 are bad bytes: carrying them into seconds would
            // trap at Int64's ends (and truncating to Int32 would change the value).
            guard parts.count == 2, (0..<1_000_000_000).contains(parts[1]) else {
                throw DecodingError.dataCorruptedError(forKey: .v, in: c, debugDescription: "date")
            }
            self = .date(Timestamp(seconds: parts[0], nanoseconds: Int32(parts[1])))
        case "data":
            guard let d = Data(base64Encoded: try c.decode(String.self, forKey: .v)) else {
                throw DecodingError.dataCorruptedError(forKey: .v, in: c, debugDescription: "base64")
            }
            self = .data(d)
        case "objectId":
            guard let id = ObjectId(parsing: try c.decode(String.self, forKey: .v)) else {
                throw DecodingError.dataCorruptedError(forKey: .v, in: c, debugDescription: "objectId")
            }
            self = .objectId(id)
        case "uuid":
            guard let id = UUID(uuidString: try c.decode(String.self, forKey: .v)) else {
                throw DecodingError.dataCorruptedError(forKey: .v, in: c, debugDescription: "uuid")
            }
            self = .uuid(id)
        case "decimal128":
            // The text form: every digit, exactly (a JSON number would go through Double).
            guard let decimal = Decimal128(try c.decode(String.self, forKey: .v)) else {
                throw DecodingError.dataCorruptedError(forKey: .v, in: c, debugDescription: "decimal128")
            }
            self = .decimal128(decimal)
        case "object": self = .link(ObjectKey(try c.decode(Int64.self, forKey: .v)))
        case "link":
            let parts = try c.decode([String].self, forKey: .v)
            guard parts.count == 2, !parts[0].isEmpty, let key = Int64(parts[1]) else {
                throw DecodingError.dataCorruptedError(forKey: .v, in: c, debugDescription: "link")
            }
            self = .typedLink(TypedLink(className: parts[0], key: ObjectKey(key)))
        case "list": self = .list(try c.decode([Value].self, forKey: .v))
        case "dictionary": self = .map(try c.decode([String: Value].self, forKey: .v))
        default:
            throw DecodingError.dataCorruptedError(forKey: .t, in: c, debugDescription: "unknown value kind \(kind)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kindName, forKey: .t)
        switch self {
        case .null: break
        case .bool(let v): try c.encode(v, forKey: .v)
        case .int(let v): try c.encode(v, forKey: .v)
        case .float(let v): try c.encode(v, forKey: .v)
        case .double(let v): try c.encode(v, forKey: .v)
        case .string(let v): try c.encode(v, forKey: .v)
        case .date(let v): try c.encode([v.seconds, Int64(v.nanoseconds)], forKey: .v)
        case .data(let v): try c.encode(v.base64EncodedString(), forKey: .v)
        case .objectId(let v): try c.encode(v.description, forKey: .v)
        case .uuid(let v): try c.encode(v.uuidString, forKey: .v)
        case .decimal128(let v): try c.encode(v.description, forKey: .v)
        case .link(let k): try c.encode(k.rawValue, forKey: .v)
        case .typedLink(let l): try c.encode([l.className, String(l.key.rawValue)], forKey: .v)
        case .list(let vs): try c.encode(vs, forKey: .v)
        case .map(let entries): try c.encode(entries, forKey: .v)
        }
    }
}
