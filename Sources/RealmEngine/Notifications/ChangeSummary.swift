/// The change-log records between two versions merged into one summary: per class, the keys
/// inserted, deleted and modified (with the union of their column masks), and which objects
/// count as modified for an observer once changes of linked objects are followed back.
struct ChangeSummary {
    var classes: [Int: ChangeRecord.ClassRecord] = [:]

    /// Merges the records; nil when they are unknown (trimmed, or a schema change), in which case
    /// the caller must treat every object as possibly changed.
    init?(_ records: [ChangeRecord]?) {
        guard let records else { return nil }
        for r in records {
            if r.everything { return nil }
            for (c, cr) in r.classes {
                var merged = classes[c, default: .init()]
                merged.inserted += cr.inserted
                merged.deleted += cr.deleted
                for (k, m) in cr.modified { merged.modified[k, default: 0] |= m }
                classes[c] = merged
            }
        }
    }

    /// The records from `base` to `snapshot`'s version, summarized; nil when unknown (also for
    /// a version that keeps no change records).
    static func between(_ base: UInt64, and snapshot: any ReadableVersion) -> ChangeSummary? {
        ChangeSummary((try? snapshot.changeRecords(after: base)) ?? nil)
    }

    /// Whether any object of the class was inserted, deleted or modified.
    func touched(_ classIndex: Int) -> Bool { classes[classIndex] != nil }

    /// The mask of every persisted column of a class (bit 63 stands for columns 63 and later).
    static func persistedMask(_ count: Int) -> UInt64 {
        count >= 64 ? .max : (UInt64(1) << UInt64(count)) &- 1
    }

    /// How many link hops a change travels back to an observed object (Realm's DeepChangeChecker
    /// also stops at 4): a change to a dog is a change to its owner's results, and to the
    /// results of the owner's employer, up to this depth.
    static let maxLinkDepth = 4

    /// The objects of `classIndex` (that exist in `snapshot`) whose persisted columns changed, or
    /// which reach a changed object through at most `depth` to-one links or list elements.
    ///
    /// Walks backwards from the changes through the backlink columns of `snapshot`, so the cost
    /// follows the size of the change, not of the observed collection. A link that itself was
    /// re-pointed is a modification of the linking object's column, recorded directly.
    func modifiedObjects(classIndex: Int, in snapshot: any ReadableVersion, depth: Int = maxLinkDepth) -> Set<ObjectKey>
    {
        let layout = snapshot.layout
        var dirty: [Int: Set<Int64>] = [:]
        var frontier: [Int: [Int64]] = [:]
        for (c, cr) in classes where c < layout.tables.count {
            let mask = Self.persistedMask(layout.tables[c].persistedCount)
            let keys = cr.modified.compactMap { $0.value & mask != 0 ? $0.key : nil }
            if !keys.isEmpty {
                dirty[c] = Set(keys)
                frontier[c] = keys
            }
        }
        var hop = 0
        while hop < depth, !frontier.isEmpty {
            hop += 1
            var next: [Int: [Int64]] = [:]
            for (t, keys) in frontier {
                for (origin, _) in layout.tables[t].backlinkColumns {
                    for k in keys {
                        guard
                            let sources = try? snapshot.backlinks(
                                classIndex: t, key: ObjectKey(k), originClass: origin.classIndex,
                                originColumn: origin.column)
                        else { continue }
                        for s in sources where dirty[origin.classIndex, default: []].insert(s.rawValue).inserted {
                            next[origin.classIndex, default: []].append(s.rawValue)
                        }
                    }
                }
            }
            frontier = next
        }
        return Set((dirty[classIndex] ?? []).map { ObjectKey($0) })
    }
}
