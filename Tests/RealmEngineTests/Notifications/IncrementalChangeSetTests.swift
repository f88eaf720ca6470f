import Foundation
import Testing
@testable import RealmEngine

/// Change sets computed from the change record (`IncrementalResults`) against a full re-run of
/// the query, on random commits: sorted results with many ties, DISTINCT, LIMIT, predicates
/// through links (which must fall back), several commits coalesced.
@Suite(.serialized) struct IncrementalChangeSetTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Item",
            properties: [
                Property(name: "name", type: .string),
                Property(name: "rank", type: .int, isOptional: true),
                Property(name: "score", type: .double),
                Property(name: "next", type: .object, objectClassName: "Item"),
                Property(name: "tag", type: .object, objectClassName: "Tag"),
            ]),
        ObjectSchema(
            name: "Tag",
            properties: [
                Property(name: "label", type: .string)
            ]),
    ])

    /// The queries, and whether each must always be computed incrementally (when its class changed).
    static let queries: [(name: String, incremental: Bool, make: @Sendable (Realm) throws -> Results)] = [
        ("by name", true, { try $0.objects("Item").sorted(byKeyPath: "name") }),
        ("by name desc", true, { try $0.objects("Item").sorted(byKeyPath: "name", ascending: false) }),
        (
            "rank desc, name", true,
            {
                try $0.objects("Item").sorted(by: [
                    SortDescriptor(keyPath: "rank", ascending: false), SortDescriptor(keyPath: "name"),
                ])
            }
        ),
        ("by rank (nulls)", true, { try $0.objects("Item").sorted(byKeyPath: "rank") }),
        ("rank > 3 by score", true, { try $0.objects("Item").filter("rank > 3").sorted(byKeyPath: "score") }),
        ("filter in key order", true, { try $0.objects("Item").filter("rank >= 2 AND name != 'b'") }),
        ("all", true, { try $0.objects("Item") }),
        ("by name limit 1000", true, { try $0.objects("Item").sorted(byKeyPath: "name").limit(1000) }),
        ("by name limit 5", false, { try $0.objects("Item").sorted(byKeyPath: "name").limit(5) }),
        ("rank > 2 limit 4", false, { try $0.objects("Item").filter("rank > 2").limit(4) }),
        (
            "score by name limit 3", false,
            { try $0.objects("Item").filter("score >= 2").sorted(byKeyPath: "name").limit(3) }
        ),
        ("distinct rank", false, { try $0.objects("Item").sorted(byKeyPath: "name").distinct(by: ["rank"]) }),
        ("next.rank > 3", false, { try $0.objects("Item").filter("next.rank > 3").sorted(byKeyPath: "name") }),
        ("next.rank > 3 in key order", false, { try $0.objects("Item").filter("next.rank > 3") }),
        ("tag.label == 'x'", false, { try $0.objects("Item").filter("tag.label == 'x'") }),
        ("by tag.label", false, { try $0.objects("Item").sorted(byKeyPath: "tag.label") }),
        // A predicate's SORT and LIMIT join the results' ordering, which is then incremental too.
        (
            "ordering in predicate, limit 3", false,
            { try $0.objects("Item").filter("rank > 1 SORT(name DESC) LIMIT(3)") }
        ),
    ]

    @Test(arguments: [11, 12, 13])
    func incrementalEqualsFullRecomputation(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let config = Realm.Configuration(
            inMemoryIdentifier: "incremental-\(seed)-\(UUID().uuidString)", schema: Self.schema)
        let writer = try Realm(configuration: config)
        let observed = try Realm(configuration: config)
        let names = ["a", "b", "c", "d", "x"]
        try writer.write {
            for label in names { _ = try writer.create("Tag", ["label": .string(label)]) }
            for _ in 0..<30 { try Self.insertItem(writer, &rng) }
        }
        observed.refresh()
        let specs = try Self.queries.map { try $0.make(observed).query }
        var pin = try PinnedVersion.holding(observed.snapshot, in: observed.shared)
        var keys = try specs.map { try $0.evaluate(in: pin.snapshot) }
        var incrementalRounds = [Int](repeating: 0, count: specs.count)
        var directChecks = 0
        for round in 0..<120 {
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                try writer.write {
                    let bulk = Int.random(in: 0..<15, using: &rng) == 0
                    for _ in 0..<(bulk ? 12 : Int.random(in: 1...3, using: &rng)) {
                        try Self.randomChange(writer, &rng)
                    }
                }
            }
            observed.refresh()
            let snapshot = try observed.snapshot
            let summary = try #require(ChangeSummary.between(pin.version, and: snapshot))
            for (q, spec) in specs.enumerated() {
                let name = Self.queries[q].name
                let base = Registration.Base(version: pin.version, pin: pin, keys: keys[q])
                let incremental = Registration(kind: .collection(spec), schema: Self.schema) { _, _, _ in }
                let full = Registration(kind: .collection(spec), schema: Self.schema) { _, _, _ in }
                full.incrementalEnabled = false
                let (change, newKeys) = incremental.compute(from: base, to: snapshot)
                let (fullChange, fullKeys) = full.compute(from: base, to: snapshot)
                let fresh = try spec.evaluate(in: snapshot)
                #expect(newKeys == fresh, "seed \(seed) round \(round) \(name): keys")
                #expect(fullKeys == fresh, "seed \(seed) round \(round) \(name): full keys")
                guard case .collection(let set) = change, case .collection(let fullSet) = fullChange else {
                    Issue.record("seed \(seed) round \(round) \(name): \(change) / \(fullChange)")
                    continue
                }
                #expect(set == fullSet, "seed \(seed) round \(round) \(name): change set \(set) expected \(fullSet)")
                if summary.touched(spec.classIndex) {
                    if incremental.fullEvaluations == 0 { incrementalRounds[q] += 1 }
                    if Self.queries[q].incremental {
                        #expect(
                            incremental.fullEvaluations == 0, "seed \(seed) round \(round) \(name) re-ran the query")
                    }
                }
                // The direct change set (no CollectionDiff over the span): valid, same modifications.
                let modified = summary.modifiedObjects(classIndex: spec.classIndex, in: snapshot)
                if let direct = try IncrementalResults.update(
                    spec, old: keys[q], from: pin.snapshot, summary: summary,
                    modified: modified, in: snapshot, exactDiffSpan: 0)
                {
                    directChecks += 1
                    #expect(direct.keys == fresh, "seed \(seed) round \(round) \(name): direct keys")
                    #expect(
                        apply(
                            deletions: direct.change.deletions, insertions: direct.change.insertions, to: keys[q],
                            new: fresh) == fresh,
                        "seed \(seed) round \(round) \(name): direct change set \(direct.change) from \(keys[q]) to \(fresh)"
                    )
                    #expect(
                        direct.change.modifications == fullSet.modifications,
                        "seed \(seed) round \(round) \(name): direct modifications")
                    // Only touched objects move; untouched ones leave only past a limit.
                    let record = summary.classes[spec.classIndex, default: .init()]
                    let touched = Set(
                        (record.inserted + record.deleted + Array(record.modified.keys)).map(ObjectKey.init))
                    let freshSet = Set(fresh)
                    for d in direct.change.deletions where !touched.contains(keys[q][d]) {
                        #expect(
                            !freshSet.contains(keys[q][d]),
                            "seed \(seed) round \(round) \(name): untouched \(keys[q][d]) moved")
                    }
                }
            }
            pin = try PinnedVersion.holding(snapshot, in: observed.shared)
            keys = try specs.map { try $0.evaluate(in: snapshot) }
        }
        for (q, query) in Self.queries.enumerated() {
            if query.incremental || query.name.contains("limit") {
                #expect(incrementalRounds[q] > 0, "\(query.name) was never incremental")
            } else {
                #expect(incrementalRounds[q] == 0, "\(query.name) must re-run")
            }
        }
        #expect(directChecks > 0)
    }

    /// One-object commits on a large sorted result: no re-run, the same change set as one.
    @Test func oneObjectCommitOnALargeSortedResultDoesNotRerun() throws {
        let config = Realm.Configuration(
            inMemoryIdentifier: "incremental-large-\(UUID().uuidString)", schema: Self.schema)
        let writer = try Realm(configuration: config)
        let observed = try Realm(configuration: config)
        let n = 20_000
        try writer.write {
            for i in 0..<n {
                _ = try writer.create(
                    "Item", ["name": .string("n\(i % 997)"), "rank": .int(Int64(i % 10)), "score": .double(Double(i))])
            }
        }
        observed.refresh()
        let items = try writer.objects("Item").keys()
        let queries = [
            try observed.objects("Item").sorted(byKeyPath: "name"),
            try observed.objects("Item").filter("rank > 4").sorted(byKeyPath: "score", ascending: false),
            try observed.objects("Item").filter("rank > 4"),
        ]
        let commits: [(String, () throws -> Void)] = [
            (
                "move to the end",
                { try writer.object(ofType: "Item", key: items[10])!.setValue(.string("zz"), forKey: "name") }
            ),
            (
                "move to the start",
                { try writer.object(ofType: "Item", key: items[n - 3])!.setValue(.string("a"), forKey: "name") }
            ),
            (
                "insert",
                { _ = try writer.create("Item", ["name": .string("n500"), "rank": .int(7), "score": .double(-1)]) }
            ),
            ("delete", { try writer.delete(try #require(try writer.object(ofType: "Item", key: items[n / 2]))) }),
            (
                "modify in place",
                { try writer.object(ofType: "Item", key: items[77])!.setValue(.double(77.5), forKey: "score") }
            ),
            (
                "leave the filter",
                { try writer.object(ofType: "Item", key: items[n - 5])!.setValue(.int(0), forKey: "rank") }
            ),
        ]
        for (what, commit) in commits {
            let pin = try PinnedVersion.holding(observed.snapshot, in: observed.shared)
            let old = try queries.map { try $0.query.evaluate(in: pin.snapshot) }
            try writer.write { try commit() }
            observed.refresh()
            let snapshot = try observed.snapshot
            for (q, results) in queries.enumerated() {
                let spec = results.query
                let base = Registration.Base(version: pin.version, pin: pin, keys: old[q])
                let incremental = Registration(kind: .collection(spec), schema: Self.schema) { _, _, _ in }
                let full = Registration(kind: .collection(spec), schema: Self.schema) { _, _, _ in }
                full.incrementalEnabled = false
                let (change, keys) = incremental.compute(from: base, to: snapshot)
                let (fullChange, fullKeys) = full.compute(from: base, to: snapshot)
                #expect(incremental.fullEvaluations == 0, "\(what) \(q): re-ran the query")
                #expect(full.fullEvaluations == 1)
                #expect(keys == fullKeys, "\(what) \(q)")
                guard case .collection(let set) = change, case .collection(let fullSet) = fullChange else {
                    Issue.record("\(what) \(q): \(change)")
                    continue
                }
                #expect(set == fullSet, "\(what) \(q)")
                // Without CollectionDiff over the span: the same indices for one object.
                let summary = try #require(ChangeSummary.between(pin.version, and: snapshot))
                let direct = try #require(
                    try IncrementalResults.update(
                        spec, old: old[q], from: pin.snapshot, summary: summary,
                        modified: summary.modifiedObjects(classIndex: spec.classIndex, in: snapshot), in: snapshot,
                        exactDiffSpan: 0))
                #expect(direct.keys == fullKeys, "\(what) \(q): direct keys")
                #expect(direct.change == fullSet, "\(what) \(q): direct \(direct.change) expected \(fullSet)")
            }
        }
    }

    /// Through `observe`: the notifier thread (and `refresh()`) compute from the change record,
    /// with the last delivered version pinned, and never re-run the sorted query.
    @Test func observedSortedResultsAreUpdatedWithoutARerun() throws {
        let config = Realm.Configuration(
            inMemoryIdentifier: "incremental-observe-\(UUID().uuidString)", schema: Self.schema)
        let writer = try Realm(configuration: config)
        let observed = try Realm(configuration: config)
        try writer.write {
            for i in 0..<3000 {
                _ = try writer.create("Item", ["name": .string("n\(i % 101)"), "score": .double(Double(i))])
            }
        }
        observed.refresh()
        var old: [ObjectKey] = []
        var failures: [String] = []
        var updates = 0
        let token = try observed.objects("Item").sorted(byKeyPath: "name").observe { change in
            switch change {
            case .initial(let r): old = (try? r.keys()) ?? []
            case .update(let r, let deletions, let insertions, _):
                updates += 1
                let new = (try? r.keys()) ?? []
                if apply(deletions: deletions, insertions: insertions, to: old, new: new) != new {
                    failures.append("\(deletions) \(insertions)")
                }
                old = new
            case .error(let e): failures.append("\(e)")
            }
        }
        defer { token.invalidate() }
        let registration = try #require(
            Mirror(reflecting: token).children.first { $0.label == "registration" }?.value as? Registration)
        pumpRunLoop { !old.isEmpty }
        let items = try writer.objects("Item").keys()
        for (i, k) in [items[5], items[2000], items[999]].enumerated() {
            try writer.write { try writer.object(ofType: "Item", key: k)!.setValue(.string("z\(i)"), forKey: "name") }
            if i == 1 {
                observed.refresh()
            } else {
                let latest = writer.version
                pumpRunLoop { observed.version >= latest && updates > i }
            }
        }
        try writer.write { _ = try writer.create("Item", ["name": .string("n50"), "score": .double(-1)]) }
        observed.refresh()
        #expect(updates == 4)
        #expect(failures.isEmpty, "\(failures)")
        #expect(old == (try observed.objects("Item").sorted(byKeyPath: "name").keys()))
        #expect(registration.stateLock.withLock { registration.fullEvaluations } == 0)
    }

    /// An object the commit did not touch can enter a filter through a link to one it did
    /// (`next.rank > 3` when the next item's rank rose): re-testing only the touched objects
    /// missed it.
    @Test func filterThroughALinkWithinTheClass() throws {
        let config = Realm.Configuration(
            inMemoryIdentifier: "incremental-self-link-\(UUID().uuidString)", schema: Self.schema)
        let realm = try Realm(configuration: config)
        var first = ObjectKey(0)
        var second = ObjectKey(0)
        try realm.write {
            second = try realm.create("Item", ["name": .string("b"), "rank": .int(1), "score": .double(0)]).key
            first = try realm.create(
                "Item", ["name": .string("a"), "rank": .int(1), "score": .double(0), "next": .link(second)]
            ).key
        }
        let results = try realm.objects("Item").filter("next.rank > 3")
        var seen: [[ObjectKey]] = []
        var insertions: [[Int]] = []
        let token = results.observe { change in
            switch change {
            case .initial(let r): seen.append((try? r.keys()) ?? [])
            case .update(let r, _, let inserted, _):
                seen.append((try? r.keys()) ?? [])
                insertions.append(inserted)
            case .error(let e): Issue.record("\(e)")
            }
        }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { try realm.object(ofType: "Item", key: second)!.setValue(.int(5), forKey: "rank") }
        realm.refresh()
        #expect(seen == [[], [first]])
        #expect(insertions == [[0]])
    }

    static func insertItem(_ w: Realm, _ rng: inout SeededRandom) throws {
        let names = ["a", "b", "c", "d", "x"]
        let items = try w.objects("Item").keys()
        let tags = try w.objects("Tag").keys()
        _ = try w.create(
            "Item",
            [
                "name": .string(names.randomElement(using: &rng)!),
                "rank": Int.random(in: 0..<4, using: &rng) == 0 ? .null : .int(Int64.random(in: 0...6, using: &rng)),
                "score": .double(Double(Int.random(in: 0...4, using: &rng))),
                "next": items.isEmpty || Bool.random(using: &rng) ? .null : .link(items.randomElement(using: &rng)!),
                "tag": tags.isEmpty ? .null : .link(tags.randomElement(using: &rng)!),
            ])
    }

    static func randomChange(_ w: Realm, _ rng: inout SeededRandom) throws {
        let names = ["a", "b", "c", "d", "x"]
        let items = try w.objects("Item").keys()
        let tags = try w.objects("Tag").keys()
        switch Int.random(in: 0..<10, using: &rng) {
        case 0, 1: try insertItem(w, &rng)
        case 2:
            if items.count > 5, let k = items.randomElement(using: &rng), let o = try w.object(ofType: "Item", key: k) {
                try w.delete(o)
            }
        case 3:
            if let k = tags.randomElement(using: &rng), let o = try w.object(ofType: "Tag", key: k) {
                try o.setValue(.string(names.randomElement(using: &rng)!), forKey: "label")
            }
        default:
            guard let k = items.randomElement(using: &rng), let o = try w.object(ofType: "Item", key: k) else { return }
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: try o.setValue(.string(names.randomElement(using: &rng)!), forKey: "name")
            case 1:
                try o.setValue(
                    Bool.random(using: &rng) ? .null : .int(Int64.random(in: 0...6, using: &rng)), forKey: "rank")
            case 2: try o.setValue(.double(Double(Int.random(in: 0...4, using: &rng))), forKey: "score")
            case 3: try o.setValue(.link(items.randomElement(using: &rng)!), forKey: "next")
            default: try o.setValue(tags.isEmpty ? .null : .link(tags.randomElement(using: &rng)!), forKey: "tag")
            }
        }
    }
}
