import Foundation

extension Realm {
    /// Resolves links for export: the target's primary key, or its position in its class in
    /// export order (written `{"$ref": C, "$index": N}`, which import reads back) when the class
    /// has no primary key or the target's optional primary key is nil (`null` would read back as
    /// no link). The positions of a class are computed once, on its first such link.
    ///
    /// A target that cannot be read (a damaged file) throws: an export must not write a link it
    /// could not verify.
    public func exportLinkResolver() -> LinkResolver {
        let realm = self
        let schema = realm.schema
        let positions = ExportPositionCache()
        return { targetClass, key in
            guard let pk = schema[targetClass]?.primaryKeyProperty else {
                return try positions.position(of: key, in: targetClass, realm: realm).map(LinkTarget.position)
            }
            guard let object = try realm.object(ofType: targetClass, key: key) else { return nil }
            let value = try object.value(forKey: pk.name)
            if value.isNull {
                return try positions.position(of: key, in: targetClass, realm: realm).map(LinkTarget.position)
            }
            return .primaryKey(value)
        }
    }
}

/// Key → position of every object of a class, in the order `realm.objects(C)` lists them.
private final class ExportPositionCache {
    private var byClass: [String: [ObjectKey: Int]] = [:]

    func position(of key: ObjectKey, in className: String, realm: Realm) throws -> Int? {
        if byClass[className] == nil {
            let keys = try realm.objects(className).keys()
            var map: [ObjectKey: Int] = [:]
            map.reserveCapacity(keys.count)
            for (i, k) in keys.enumerated() { map[k] = i }
            byClass[className] = map
        }
        return byClass[className]?[key]
    }
}
