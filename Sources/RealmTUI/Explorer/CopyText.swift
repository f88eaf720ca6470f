import Foundation
import RealmEngine

/// The text `y` puts on the clipboard: a value in the engine's export syntax (what
/// `realmtui export` writes, and what the editors, `update --set` and `import` read back), not
/// the table's display form (which abbreviates data to a size and hex, and lists to a count).
enum CopyText {
    /// `value` of `property` as export writes it: data as base64, dates ISO 8601, objectId hex,
    /// uuid lowercase, nil as `null`, lists as JSON arrays and links as export names their target
    /// (its primary key, or `{"$ref": C, "$index": N}`). A string is its own text, unquoted, so a
    /// copied name pastes as that name; only a string that would read back as something else
    /// (`null`, a JSON string) is copied as a JSON string.
    ///
    /// - Throws: the error reading a link's target.
    static func text(for value: Value, _ property: Property, realm: Realm) throws -> String {
        if case .string(let s) = value {
            if (try? Value.parse(s, for: property, className: "")) == .string(s) { return s }
            return JSONWriter.quoted(s)
        }
        let json = try JSONExport.json(value, for: property, resolveLink: realm.exportLinkResolver())
        if case .string(let s) = json { return s }  // a date, data, id or "nan": the bare text
        var writer = JSONWriter()
        writer.write(json)
        return writer.output
    }

    /// The value of `property` of `object` as `text(for:)` writes it; linking objects as the
    /// JSON array of the objects that link here.
    static func text(of object: DynamicObject, _ property: Property, realm: Realm) throws -> String {
        if property.type == .linkingObjects {
            let keys = try object.linkingObjects(forKey: property.name).keys()
            return try text(for: .list(keys.map { .link($0) }), property, realm: realm)
        }
        return try text(for: try object.value(forKey: property.name), property, realm: realm)
    }
}
