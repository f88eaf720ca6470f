import Foundation

extension Realm {
    /// Resolves links for export: the target's primary key, or when its class has none its
    /// position in that class in export order (written `{"$ref": C, "$index": N}`, which import
    /// reads back). The positions of a class are computed once, on its first link.
    public func exportLinkResolver() -> LinkResolver {
        let realm = self
        let schema = realm.schema
        let positions = ExportPositionCache()
        return { targetClass, key in
            guard let pk = schema[targetClass]?.primaryKeyProperty else {
                return positions.position(of: key, in: targetClass, realm: realm).map(LinkTarget.position)
            }
            guard let object = try? realm.object(ofType: targetClass, key: key),
                  let value = try? object.value(forKey: pk.name) else { return nil }
            return .primaryKey(value)
        }
    }
}

/// Key → position of every object of a class, in the order `realm.objects(C)` lists them.
private final class ExportPositionCache {
    private var byClass: [String: [ObjectKey: Int]] = [:]

    func position(of key: ObjectKey, in className: String, realm: Realm) -> Int? {
        if byClass[className] == nil {
            guard let keys = try? realm.objects(className).keys() else { return nil }
            var map: [ObjectKey: Int] = [:]
            map.reserveCapacity(keys.count)
            for (i, k) in keys.enumerated() { map[k] = i }
            byClass[className] = map
        }
        return byClass[className]?[key]
    }
}
