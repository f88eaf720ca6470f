import Foundation

extension Realm {
    /// Resolves links for export: an embedded object's values (written nested in its parent),
    /// the target's primary key, or its position in its class in
    /// export order (written `{"$ref": C, "$index": N}`, which import reads back) when the class
    /// has no primary key or the target's optional primary key is nil (`null` would read back as
    /// no link). The positions of a class are computed once, on its first such link.
    ///
    /// `output`, the keys of the objects of `outputClass` being written in that order (a sorted,
    /// filtered or limited query's), makes a link to that class count positions in the output,
    /// as `import --class` does when it reads it back; a link to an object of that class the
    /// output leaves out then throws, since no position names it.
    ///
    /// A target that cannot be read (a damaged file) throws: an export must not write a link it
    /// could not verify.
    public func exportLinkResolver(output: [ObjectKey]? = nil, of outputClass: String? = nil) -> LinkResolver {
        let realm = self
        let schema = realm.schema
        let positions = ExportPositionCache()
        if let output, let outputClass { positions.setOutput(output, of: outputClass) }
        return { targetClass, key in
            if let target = schema[targetClass], target.isEmbedded {
                // Written nested: an embedded object has no name of its own to refer to it by.
                guard let object = try realm.object(ofType: targetClass, key: key) else { return nil }
                return .embedded(target, try object.values())
            }
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

/// Key → position of every object of a class, in the order `realm.objects(C)` lists them, or,
/// for the class being written, in the order written.
private final class ExportPositionCache {
    private var byClass: [String: [ObjectKey: Int]] = [:]
    private var outputClass: String?

    func setOutput(_ keys: [ObjectKey], of className: String) {
        byClass[className] = Self.positions(keys)
        outputClass = className
    }

    func position(of key: ObjectKey, in className: String, realm: Realm) throws -> Int? {
        if byClass[className] == nil {
            byClass[className] = Self.positions(try realm.objects(className).keys())
        }
        if let position = byClass[className]?[key] { return position }
        if className == outputClass, try realm.object(ofType: className, key: key) != nil {
            throw RealmError.invalidInput(
                "a link names a \(className) that is not in this output, and \(className) has no primary key to name it by: "
                    + "include the linked objects (or write the whole class: realmtui export)")
        }
        return nil
    }

    private static func positions(_ keys: [ObjectKey]) -> [ObjectKey: Int] {
        var map: [ObjectKey: Int] = [:]
        map.reserveCapacity(keys.count)
        for (i, k) in keys.enumerated() { map[k] = i }
        return map
    }
}
