import Foundation

/// The one text syntax for a property's value, shared by `realmtui update --set`, `import` (JSON
/// and CSV cells) and the explorer's editors. The property's type decides how text is read:
///
/// | property        | text                                                                       |
/// |-----------------|----------------------------------------------------------------------------|
/// | any             | `null` → nil (optional properties only)                                     |
/// | bool            | `true` / `false`                                                            |
/// | int…, float, double | a number; floats also `nan`, `inf`, `-inf`                             |
/// | string          | the text itself; a JSON string (`"null"`, `"  padded"`) for text that would otherwise read differently |
/// | date            | ISO 8601 (`2020-01-02`, `2020-01-02T03:04:05.25Z`, fractions kept; years outside 0000–9999 signed, `+10000-01-01`, `-0001-01-01`) or epoch milliseconds |
/// | data            | base64                                                                      |
/// | objectId / uuid | 24 hex digits / the canonical UUID string                                   |
/// | decimal128      | a decimal number read exactly (`12.50`, `-1E-6143`), `NaN`, `Inf`, `-Inf`; refused when it has more than 34 significant digits or an exponent out of range |
/// | link            | the target's primary key, or `{"$ref": "Class", "$index": N}` (an object of an import file) |
/// | list            | a JSON array of the element forms above                                     |
///
/// Text that is valid JSON is read as that JSON (so `"Rex"` and `Rex` both give the string `Rex`,
/// and `4` gives a number); other text is read as if it were a JSON string.
public enum ValueSyntax {
    /// How string properties read their text.
    public enum Strings: Sendable {
        /// Text that is a JSON string is unquoted; `null` is nil; anything else is the text
        /// itself (command-line arguments and editors).
        case jsonOrBare
        /// The text is the string, always, as it is for data, objectId and uuid (CSV cells,
        /// where nil is an unquoted empty cell).
        case literal
    }

    /// The JSON that `text` stands for as a value of `property` (see the table above). For a
    /// link, `keyType` is the type of the target's primary key (nil when it has none).
    public static func json(
        fromText text: String, for property: Property, keyType: PropertyType? = nil,
        strings: Strings = .jsonOrBare
    ) -> JSONValue {
        let parsed = try? JSONParser.parse(text)
        if property.isCollection { return parsed ?? .string(text) }
        if property.isLink, case .object? = parsed { return parsed ?? .null }  // a reference or nested object
        let isString = property.type == .string || (property.isLink && keyType == .string)
        if case .literal = strings {
            // Data, objectId and uuid cells are their text too: base64 may spell `null`, and an
            // objectId may be all decimal digits.
            let isText = isString || (!property.isLink && [.data, .objectId, .uuid].contains(property.type))
            if isText { return .string(text) }
        }
        guard isString else { return parsed ?? .string(text) }
        switch parsed {
        case .string?, .null?: return parsed ?? .null
        default: return .string(text)
        }
    }

    /// Parses `text` as a value of `property` of class `className`: the one place that decides
    /// what text means for each type (see `ValueSyntax`).
    ///
    /// - Returns: `.value(…)` for scalars, lists of scalars and nil; `.primaryKey(…)` for a link
    ///   given by the target's primary key; a reference or nested object for `{…}` text (see
    ///   `JSONImport`); `.array(…)` of those for a list of links.
    /// - Throws: `typeMismatch` naming the property and the forms it accepts, `missingValue` for
    ///   nil on a required property, `noSuchClass` for a link to a class not in `schema`.
    public static func parse(
        _ text: String, for property: Property, className: String, schema: Schema,
        strings: Strings = .jsonOrBare
    ) throws -> ObjectInput {
        let keyType = property.objectClassName.flatMap { schema[$0] }?.primaryKeyProperty?.type
        let json = json(fromText: text, for: property, keyType: keyType, strings: strings)
        if case .null = json, !property.isOptional, !property.isCollection {
            throw RealmError.missingValue(className: className, property: property.name)
        }
        return try JSONImport.input(fromJSON: json, for: property, className: className, schema: schema)
    }
}

extension Value {
    /// Parses `text` as a value of the non-link `property` by the one value syntax
    /// (`ValueSyntax`): ISO 8601 or epoch milliseconds for dates, base64 for data, `null` for nil.
    ///
    /// - Throws: `typeMismatch` for text the type does not accept or for a link property (use
    ///   `ValueSyntax.parse(_:for:className:schema:strings:)`, which can refer to objects).
    public static func parse(_ text: String, for property: Property, className: String) throws -> Value {
        let json = ValueSyntax.json(fromText: text, for: property)
        if case .null = json, !property.isOptional, !property.isCollection {
            throw RealmError.missingValue(className: className, property: property.name)
        }
        return try JSONImport.value(fromJSON: json, for: property, className: className)
    }
}
