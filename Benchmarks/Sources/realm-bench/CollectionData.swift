import BenchSupport

/// The items of the set and dictionary tasks: each has 0–4 distinct tags out of 64 (a set of
/// strings) and 0–4 of four attribute keys with values 0–99 (a dictionary of integers),
/// generated from a fixed seed like `Dataset`. Stored as indexes into `tagWords` and
/// `attributeKeys` so that a million items stay small in memory.
struct CollectionData {
    static let seed: UInt64 = 0xC011_EC71
    static let tagWords = (0..<64).map { "tag\($0)" }
    static let attributeKeys = ["color", "size", "weight", "rank"]

    /// Per item, its tags (indexes into `tagWords`), distinct, in insertion order.
    var tags: [[UInt8]] = []
    /// Per item, its attributes (key index into `attributeKeys`, value), keys distinct.
    var attributes: [[(key: UInt8, value: Int64)]] = []

    var count: Int { tags.count }

    static func generate(count n: Int) -> CollectionData {
        var rng = SplitMix64(seed: seed)
        var d = CollectionData()
        d.tags.reserveCapacity(n)
        d.attributes.reserveCapacity(n)
        for _ in 0..<n {
            var chosen: [UInt8] = []
            for _ in 0..<Int(rng.next() % 5) {
                let word = UInt8(rng.next() % 64)
                if !chosen.contains(word) { chosen.append(word) }
            }
            d.tags.append(chosen)
            var attributes: [(key: UInt8, value: Int64)] = []
            for key in 0..<UInt8(attributeKeys.count) where rng.next() % 2 == 0 {
                attributes.append((key, Int64(rng.next() % 100)))
            }
            d.attributes.append(attributes)
        }
        return d
    }

    /// Item `i`'s tags as strings.
    func tagStrings(_ i: Int) -> [String] { tags[i].map { CollectionData.tagWords[Int($0)] } }

    /// Item `i`'s attributes as (key, value).
    func attributePairs(_ i: Int) -> [(key: String, value: Int64)] {
        attributes[i].map { (CollectionData.attributeKeys[Int($0.key)], $0.value) }
    }

    /// Item `i`'s tags as a JSON array (what the JSON column holds).
    func tagsJSON(_ i: Int) -> String {
        "[" + tags[i].map { "\"\(CollectionData.tagWords[Int($0)])\"" }.joined(separator: ",") + "]"
    }

    /// Item `i`'s attributes as a JSON object.
    func attributesJSON(_ i: Int) -> String {
        "{" + attributes[i].map { "\"\(CollectionData.attributeKeys[Int($0.key)])\":\($0.value)" }.joined(separator: ",") + "}"
    }
}

/// How an engine stores the items: realmtui in a set property and a dictionary property of
/// `Item`; SQLite in its two nearest forms, each in a file of its own.
enum CollectionForm: String {
    /// realmtui: `Item { id, tags: Set<String>, attrs: Map<String, Int> }`.
    case native
    /// SQLite: `item(id, tags, attrs)`, `tags` a JSON array and `attrs` a JSON object (TEXT),
    /// searched with `json_each` / `json_extract`; no index can reach an element.
    case json
    /// SQLite: `item(id)` with join tables `item_tag(item, tag)` and `item_attr(item, key, value)`,
    /// indexed for the queries (`tag`; `key, value`; `value`).
    case join

    /// The report's rows a sample of `task` in this form goes to: the JSON form's under the
    /// task's name, the join form's under `<task>_join`; realmtui has one form, and its sample
    /// goes to both rows (each row's ratio is then its SQLite form against the same realmtui
    /// figure).
    func rows(_ task: String) -> [String] {
        switch self {
        case .native: [task, task + "_join"]
        case .json: [task]
        case .join: [task + "_join"]
        }
    }
}

/// One count over the items, as each form asks it, and the answer computed from the data.
struct CollectionTask: Sendable {
    var name: String
    /// realmtui's predicate (Realm Query Language) on `Item`.
    var predicate: String
    var jsonSQL: String
    var joinSQL: String
    /// Whether an item counts, from the generated data alone (the reference).
    var matches: @Sendable (_ tags: [UInt8], _ attributes: [(key: UInt8, value: Int64)]) -> Bool

    func sql(_ form: CollectionForm) -> String { form == .join ? joinSQL : jsonSQL }

    /// The reference answer over `data`.
    func expected(_ data: CollectionData) -> Int {
        var n = 0
        for i in 0..<data.count where matches(data.tags[i], data.attributes[i]) { n += 1 }
        return n
    }

    private static func tag(_ word: String) -> UInt8 { UInt8(CollectionData.tagWords.firstIndex(of: word) ?? 0) }
    private static func key(_ name: String) -> UInt8 { UInt8(CollectionData.attributeKeys.firstIndex(of: name) ?? 0) }

    /// The query tasks, in the report's order.
    static let all: [CollectionTask] = {
        let tag7 = tag("tag7"), tag3 = tag("tag3"), tag40 = tag("tag40")
        let color = key("color"), rank = key("rank")
        return [
            CollectionTask(
                name: "set_contains", predicate: "ANY tags == 'tag7'",
                jsonSQL: "SELECT count(*) FROM item WHERE EXISTS (SELECT 1 FROM json_each(item.tags) WHERE value = 'tag7')",
                joinSQL: "SELECT count(DISTINCT item) FROM item_tag WHERE tag = 'tag7'",
                matches: { tags, _ in tags.contains(tag7) }),
            CollectionTask(
                name: "set_in_either", predicate: "ANY tags IN {'tag3', 'tag40'}",
                jsonSQL: "SELECT count(*) FROM item WHERE EXISTS (SELECT 1 FROM json_each(item.tags) WHERE value IN ('tag3', 'tag40'))",
                joinSQL: "SELECT count(DISTINCT item) FROM item_tag WHERE tag IN ('tag3', 'tag40')",
                matches: { tags, _ in tags.contains(tag3) || tags.contains(tag40) }),
            CollectionTask(
                name: "set_size", predicate: "tags.@count >= 3",
                jsonSQL: "SELECT count(*) FROM item WHERE json_array_length(tags) >= 3",
                joinSQL: "SELECT count(*) FROM (SELECT item FROM item_tag GROUP BY item HAVING count(*) >= 3)",
                matches: { tags, _ in tags.count >= 3 }),
            CollectionTask(
                name: "map_key_value", predicate: "attrs['color'] == 42",
                jsonSQL: "SELECT count(*) FROM item WHERE json_extract(attrs, '$.color') = 42",
                joinSQL: "SELECT count(*) FROM item_attr WHERE key = 'color' AND value = 42",
                matches: { _, attributes in attributes.contains { $0.key == color && $0.value == 42 } }),
            CollectionTask(
                name: "map_any_value", predicate: "ANY attrs.@values == 42",
                jsonSQL: "SELECT count(*) FROM item WHERE EXISTS (SELECT 1 FROM json_each(item.attrs) WHERE value = 42)",
                joinSQL: "SELECT count(DISTINCT item) FROM item_attr WHERE value = 42",
                matches: { _, attributes in attributes.contains { $0.value == 42 } }),
            CollectionTask(
                name: "map_has_key", predicate: "ANY attrs.@keys == 'rank'",
                jsonSQL: "SELECT count(*) FROM item WHERE json_type(attrs, '$.rank') IS NOT NULL",
                joinSQL: "SELECT count(*) FROM item_attr WHERE key = 'rank'",
                matches: { _, attributes in attributes.contains { $0.key == rank } }),
        ]
    }()

    /// The insert task: every item in one durable transaction, into a new file.
    static let insertName = "insert_items"

    /// Every report row of the collection tasks, in the report's order.
    static let rowNames: [String] = ([insertName] + all.map(\.name)).flatMap { [$0, $0 + "_join"] }

    /// SQLite's tables of each form (`json` or `join`).
    static func schemaSQL(_ form: CollectionForm) -> [String] {
        switch form {
        case .native: []
        case .json: ["CREATE TABLE item (id INTEGER PRIMARY KEY, tags TEXT NOT NULL, attrs TEXT NOT NULL)"]
        case .join: [
            "CREATE TABLE item (id INTEGER PRIMARY KEY)",
            // Keyed by item (an item's elements together), indexed by tag (membership).
            "CREATE TABLE item_tag (item INTEGER NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (item, tag)) WITHOUT ROWID",
            "CREATE INDEX item_tag_tag ON item_tag (tag)",
            "CREATE TABLE item_attr (item INTEGER NOT NULL, key TEXT NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (item, key)) WITHOUT ROWID",
            "CREATE INDEX item_attr_key_value ON item_attr (key, value)",
            "CREATE INDEX item_attr_value ON item_attr (value)",
        ]
        }
    }
}
