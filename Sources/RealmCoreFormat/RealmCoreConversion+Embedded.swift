import Foundation
import RealmEngine

/// Embedded objects of a Realm Core file: Realm keeps each one owned by exactly one parent (a
/// to-one link, a list or a dictionary of a top-level or embedded object), and a file has no
/// checksum that would say it still is. Before a single object is written, the conversion
/// checks what the engine relies on — every embedded object has exactly one parent, no link
/// names a missing one, and following parents always reaches a top-level object (no cycle) —
/// and refuses a file that breaks it, naming the object, rather than converting something
/// different from what Realm shows.
extension RealmCoreConversion {
    /// The object linking to an embedded object.
    struct Owner: CustomStringConvertible {
        var className: String
        var key: Int64
        var property: String
        var description: String { "\(className) \(key) (through '\(property)')" }
    }

    /// Each embedded object's parent, gathered while the links are read.
    struct EmbeddedOwners {
        /// By embedded class, by object key.
        var owners: [String: [Int64: Owner]] = [:]

        /// Records that `owner` links to `child` of the embedded class `target`; a second parent
        /// (or the same one twice) is refused.
        mutating func note(_ child: Int64, of target: String, owner: Owner, in bytes: CoreBytes, at offset: Int) throws
        {
            if let first = owners[target]?[child] {
                if first.className == owner.className, first.key == owner.key, first.property == owner.property {
                    throw bytes.corrupt(
                        offset,
                        "embedded object \(target) \(child) is held twice by \(owner); an embedded object has exactly one parent"
                    )
                }
                throw bytes.corrupt(
                    offset,
                    "embedded object \(target) \(child) has two parents, \(first) and \(owner); "
                        + "an embedded object has exactly one")
            }
            owners[target, default: [:]][child] = owner
        }
    }

    /// Checks the embedded objects of the file against the links to them (read by the caller
    /// into `owners`): none missing, none without a parent, no cycle without a top-level object.
    func verify(_ owners: EmbeddedOwners) throws {
        for plan in plans where plan.table.kind == .embedded {
            let table = plan.table
            let ownerOf = owners.owners[plan.name] ?? [:]
            var found = 0
            try table.forEachKey { key in
                guard ownerOf[key] != nil else {
                    throw file.bytes.corrupt(
                        table.clusterRoot ?? 0, "embedded object \(plan.name) \(key) has no parent (an orphan)")
                }
                found += 1
            }
            // Each owner names a distinct key; fewer found than owners means a link to no object.
            if found < ownerOf.count {
                var keys = Set<Int64>()
                try table.forEachKey { keys.insert($0) }
                if let (key, owner) = ownerOf.sorted(by: { $0.key < $1.key }).first(where: { !keys.contains($0.key) }) {
                    throw file.bytes.corrupt(
                        table.clusterRoot ?? 0,
                        "\(owner) links to embedded object \(plan.name) \(key), which does not exist")
                }
            }
        }
        try checkAncestry(owners)
    }

    /// Follows each embedded object's parents up to a top-level object; a chain that comes back
    /// to itself is a cycle no write makes. Each object is visited once (chains found rooted
    /// are remembered), iteratively, so a long chain costs no stack.
    private func checkAncestry(_ owners: EmbeddedOwners) throws {
        var rooted: [String: Set<Int64>] = [:]
        // In key order (not the dictionaries' per-process order), so that a damaged file names
        // the same cycle in every run and in every command (`copy` and `check` agree).
        for (className, children) in owners.owners.sorted(by: { $0.key < $1.key }) {
            for start in children.keys.sorted() where rooted[className]?.contains(start) != true {
                var path: [(String, Int64)] = []
                var onPath: [String: Set<Int64>] = [:]
                var current = (className, start)
                while embeddedClasses.contains(current.0), rooted[current.0]?.contains(current.1) != true {
                    guard onPath[current.0, default: []].insert(current.1).inserted else {
                        let cycle = path.drop { $0 != current }.map { "\($0.0) \($0.1)" }
                        throw file.bytes.corrupt(
                            0,
                            "embedded objects \(cycle.joined(separator: " → ")) own each other in a cycle, "
                                + "with no top-level object above them")
                    }
                    path.append(current)
                    // Every embedded object has an owner here: `verify` found none missing.
                    guard let owner = owners.owners[current.0]?[current.1] else {
                        throw file.bytes.corrupt(
                            0, "embedded object \(current.0) \(current.1) has no parent (an orphan)")
                    }
                    current = (owner.className, owner.key)
                }
                for (name, key) in path { rooted[name, default: []].insert(key) }
            }
        }
    }

    /// Reads every link to an embedded object and checks the embedded objects as `copy` does
    /// (`check` of a Realm file): an embedded object with two parents or none, a link to a
    /// missing one, a cycle are errors naming the object. Returns the number of embedded objects.
    public func checkEmbeddedObjects() throws -> Int {
        var owners = EmbeddedOwners()
        var dropped = 0
        for plan in plans {
            let owning = plan.columns.filter {
                $0.property.isLink && $0.property.objectClassName.map(embeddedClasses.contains) == true
            }
            guard !owning.isEmpty else { continue }
            try plan.table.forEachObject { object in
                for (position, property) in owning {
                    guard let targetClass = property.objectClassName else { continue }
                    for target in try Self.linkedKeys(
                        object.values[position], dropped: &dropped, in: plan.name, property.name)
                    {
                        try owners.note(
                            target.rawValue, of: targetClass,
                            owner: .init(className: plan.name, key: object.key, property: property.name),
                            in: file.bytes, at: plan.table.clusterRoot ?? 0)
                    }
                }
                return true
            }
        }
        try verify(owners)
        return plans.filter { $0.table.kind == .embedded }.reduce(0) { $0 + $1.table.objectCount }
    }
}
