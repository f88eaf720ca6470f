import Foundation
import RealmEngine

/// How a Mixed value looks: with its type wherever the text alone would not tell it. A string
/// is quoted (`"5"` is text, `5` an int, `5.0` a double), a float and a decimal say so, an
/// ObjectId and a UUID are named, a link is `Class#key`; a nested list or dictionary is shown
/// like a list or dictionary property (`[3] 1, "two", null`), its elements by these rules.
extension ValueFormatter {
    /// The shown form of a scalar Mixed value; nil for nil, lists and dictionaries (shown as any
    /// value of their kind).
    func mixedShown(_ value: Value) -> Shown? {
        switch value {
        case .string(let text): return Shown(text: JSONWriter.quoted(text))
        case .float(let v): return Shown(text: ValueFormatter.number(Double(v), isFloat: true) + " (float)")
        case .decimal128(let v): return Shown(text: v.description + " (decimal)")
        case .objectId(let v): return Shown(text: "ObjectId(\(v))")
        case .uuid(let v): return Shown(text: "UUID(\(v.uuidString.lowercased()))")
        case .typedLink(let link): return Shown(text: "→ \(link)")
        case .double(let v):
            // A whole double prints as `5.0`, a non-finite one as `nan`: say double for those.
            let text = ValueFormatter.number(v, isFloat: false)
            return Shown(text: v.isFinite ? text : text + " (double)")
        default: return nil
        }
    }
}

extension EditText {
    /// A Mixed value from the editor's text: `Class#key` for a link to an existing object, else
    /// the value syntax (JSON: `5`, `5.0`, `"5"`, `[1, "a"]`, `{"k": 1}`, a tag like
    /// `{"$date": "2020-01-02"}`, or bare text as a string).
    static func mixed(_ text: String, for property: Property, className: String, realm: Realm) throws -> Value {
        let word = text.trimmingCharacters(in: .whitespaces)
        if let hash = word.lastIndex(of: "#"), realm.schema[String(word[..<hash])] != nil,
            let raw = Int64(word[word.index(after: hash)...])
        {
            let target = String(word[..<hash])
            guard try realm.object(ofType: target, key: ObjectKey(raw)) != nil else {
                throw RealmError.invalidInput("\(target)#\(raw): no such object")
            }
            return .typedLink(TypedLink(className: target, key: ObjectKey(raw)))
        }
        return try Value.parse(text, for: property, className: className)
    }
}
