import Foundation
import Testing
@testable import RealmEngine
@testable import RealmTUI
import TestSupport

/// The type walk: every `PropertyType`, in every shape a property can have it (required,
/// optional, list, set, dictionary), goes through every layer a user meets it in — a realm-js
/// schema (`create --schema`, `schema --json`), JSON import, storage (read back after a
/// reopen), the query language (`==`, `ANY`, `[key]`, `@count`, `nil`), sorting, JSON and CSV
/// export → import byte-identical, the integrity check, and the explorer's cell. Embedded
/// objects (not a type but a kind of class) walk the same layers as a to-one link, a list and
/// a dictionary of an embedded `Part`, which holds a `Part` of its own.
///
/// `sample(of:)` switches over `PropertyType` with no `default:`, so a new type does not
/// compile until it has samples here, and then fails here until every layer handles it.
@Suite(.tags(.multiProcess)) struct TypeWalkTests {
    /// Two values of one type, `high` sorting after `low`, in the forms each layer takes them.
    struct Sample {
        var type: PropertyType
        /// realm-js's name of the type in a schema (`int`, `decimal128`, or the target class).
        var schemaName: String
        var high: Value
        var low: Value
        var highJSON: String
        var lowJSON: String
        /// The explorer's cell of `high` as a required property.
        var highCell: String
    }

    enum Shape: String, CaseIterable {
        case required, optional, list, set, map

        func schemaForm(_ name: String, isLink: Bool) -> String {
            switch self {
            case .required, .optional: isLink || self == .optional ? name + "?" : name
            case .list: name + "[]"
            case .set: name + "<>"
            case .map: name + "{}"
            }
        }
    }

    static func ts(_ text: String) -> Value {
        Timestamp.parseISO8601(text).map(Value.date) ?? .null
    }

    /// The samples of `type`; nil for a computed type (linking objects are walked with links).
    static func sample(of type: PropertyType) throws -> Sample? {
        func integer(_ name: String) -> Sample {
            Sample(
                type: type, schemaName: name, high: .int(42), low: .int(7), highJSON: "42", lowJSON: "7", highCell: "42"
            )
        }
        switch type {
        case .bool:
            return Sample(
                type: type, schemaName: "bool", high: .bool(true), low: .bool(false), highJSON: "true",
                lowJSON: "false", highCell: "true")
        case .int: return integer("int")
        case .int8: return integer("int8")
        case .int16: return integer("int16")
        case .int32: return integer("int32")
        case .float:
            return Sample(
                type: type, schemaName: "float", high: .float(1.5), low: .float(0.25), highJSON: "1.5", lowJSON: "0.25",
                highCell: "1.5")
        case .double:
            return Sample(
                type: type, schemaName: "double", high: .double(2.5), low: .double(-0.5), highJSON: "2.5",
                lowJSON: "-0.5", highCell: "2.5")
        case .string:
            return Sample(
                type: type, schemaName: "string", high: .string("walk"), low: .string("alpha"),
                highJSON: #""walk""#, lowJSON: #""alpha""#, highCell: "walk")
        case .date:
            return Sample(
                type: type, schemaName: "date", high: ts("2024-05-06T07:08:09.123Z"), low: ts("2020-01-01T00:00:00Z"),
                highJSON: #""2024-05-06T07:08:09.123Z""#, lowJSON: #""2020-01-01T00:00:00Z""#,
                highCell: "2024-05-06T07:08:09.123Z")
        case .data:
            return Sample(
                type: type, schemaName: "data", high: .data(Data([0, 1, 2])), low: .data(Data([0, 1])),
                highJSON: #""AAEC""#, lowJSON: #""AAE=""#, highCell: "3 B 000102")
        case .objectId:
            return Sample(
                type: type, schemaName: "objectId",
                high: .objectId(try ObjectId(string: "65f0a0000000000000000002")),
                low: .objectId(try ObjectId(string: "65f0a0000000000000000001")),
                highJSON: #""65f0a0000000000000000002""#, lowJSON: #""65f0a0000000000000000001""#,
                highCell: "65f0a0000000000000000002")
        case .uuid:
            let high = "00000000-0000-4000-8000-000000000002"
            let low = "00000000-0000-4000-8000-000000000001"
            return Sample(
                type: type, schemaName: "uuid", high: .uuid(try #require(UUID(uuidString: high))),
                low: .uuid(try #require(UUID(uuidString: low))), highJSON: "\"\(high)\"", lowJSON: "\"\(low)\"",
                highCell: high)
        case .decimal128:
            return Sample(
                type: type, schemaName: "decimal128", high: .decimal128(try Decimal128(parsing: "12.50")),
                low: .decimal128(try Decimal128(parsing: "0.1")), highJSON: #""12.50""#, lowJSON: #""0.1""#,
                highCell: "12.50")
        case .object:
            // Links are named by the target's primary key in JSON; their values are checked by
            // following them (`Sample.high`/`low` name the targets' primary keys).
            return Sample(
                type: type, schemaName: "Target", high: .string("b"), low: .string("a"),
                highJSON: #""b""#, lowJSON: #""a""#, highCell: "→ b")
        case .mixed:
            // Any value: a number sorts before a string; optional by nature (no "mixed?" form).
            return Sample(
                type: type, schemaName: "mixed", high: .string("walk"), low: .int(7),
                highJSON: #""walk""#, lowJSON: "7", highCell: #""walk""#)
        case .linkingObjects:
            return nil
        }
    }

    /// Every (type, shape) a property can have: links are never required, Mixed is always optional.
    static func properties() throws -> [(name: String, sample: Sample, shape: Shape)] {
        var result: [(String, Sample, Shape)] = []
        for type in PropertyType.allCases {
            guard let sample = try sample(of: type) else { continue }
            for shape in Shape.allCases
            where !(type == .object && shape == .required) && !(type == .mixed && shape == .optional) {
                result.append(("\(type.rawValue)_\(shape.rawValue)", sample, shape))
            }
        }
        return result
    }

    /// The shapes an embedded object can be held in (never a set, never required) and their
    /// properties of `Item`: `part_optional: Part?`, `part_list: Part[]`, `part_map: Part{}`.
    static let embeddedShapes: [Shape] = [.optional, .list, .map]

    static func embeddedName(_ shape: Shape) -> String { "part_\(shape.rawValue)" }

    /// An embedded `Part` as JSON, holding `label` and an embedded `Part` of its own in `inner`
    /// (an embedded object inside an embedded object).
    static func partJSON(_ label: String) -> String {
        #"{"label": "\#(label)", "inner": {"label": "\#(label)-inner", "inner": null}}"#
    }

    /// The realm-js schema: `Item` with every property, `Target` with the linking objects,
    /// `Part` embedded (in `Item` and in itself).
    static func schemaJSON() throws -> String {
        let properties =
            try Self.properties().map { property in
                #""\#(property.name)": "\#(property.shape.schemaForm(property.sample.schemaName, isLink: property.sample.type == .object))""#
            } + embeddedShapes.map { #""\#(embeddedName($0))": "\#($0.schemaForm("Part", isLink: true))""# }
        return #"[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "#
            + properties.joined(separator: ", ") + "}}, "
            + #"{"name": "Target", "primaryKey": "name", "properties": {"name": "string", "#
            + #""items": {"type": "linkingObjects", "objectType": "Item", "property": "object_list"}}}, "#
            + #"{"name": "Part", "embedded": true, "properties": {"label": "string", "inner": "Part?"}}]"#
    }

    /// Item 1 holds the high values (a collection both, high first), item 2 the low ones (an
    /// optional: null; a collection: low alone).
    static func dataJSON() throws -> String {
        var first: [String] = [#""id": 1"#]
        var second: [String] = [#""id": 2"#]
        for (name, sample, shape) in try properties() {
            switch shape {
            case .required:
                first.append("\"\(name)\": \(sample.highJSON)")
                second.append("\"\(name)\": \(sample.lowJSON)")
            case .optional:
                first.append("\"\(name)\": \(sample.highJSON)")
                second.append("\"\(name)\": null")
            case .list, .set:
                first.append("\"\(name)\": [\(sample.highJSON), \(sample.lowJSON)]")
                second.append("\"\(name)\": [\(sample.lowJSON)]")
            case .map:
                first.append("\"\(name)\": {\"k\": \(sample.highJSON), \"j\": \(sample.lowJSON)}")
                second.append("\"\(name)\": {\"k\": \(sample.lowJSON)}")
            }
        }
        for shape in embeddedShapes {
            let name = embeddedName(shape)
            let high = partJSON("walk")
            let low = partJSON("alpha")
            switch shape {
            case .optional:
                first.append("\"\(name)\": \(high)")
                second.append("\"\(name)\": null")
            case .list:
                first.append("\"\(name)\": [\(high), \(low)]")
                second.append("\"\(name)\": [\(low)]")
            case .map:
                first.append("\"\(name)\": {\"k\": \(high), \"j\": \(low)}")
                second.append("\"\(name)\": {\"k\": \(low)}")
            case .required, .set: break
            }
        }
        return #"{"Target": [{"name": "a"}, {"name": "b"}], "Item": [{"#
            + first.joined(separator: ", ") + "}, {" + second.joined(separator: ", ") + "}]}"
    }

    func database(_ scratch: Scratch) throws -> String {
        let file = try scratch.createRealm(
            "walk.realm", schema: try scratch.write("schema.json", try Self.schemaJSON()))
        let imported = try CLI.run(["import", file, "-"], stdin: try Self.dataJSON())
        try #require(imported.status == 0, "\(imported.stderr)")
        return file
    }

    /// The primary keys of `results`, in order.
    func ids(_ results: Results) throws -> [Int64] {
        try results.map { object in
            guard case .int(let id) = try object.value(forKey: "id") else { throw RealmError.invalidInput("no id") }
            return id
        }
    }

    /// A link's value as the target's primary key; other values unchanged.
    func resolved(_ value: Value, _ realm: Realm) throws -> Value {
        switch value {
        case .link(let key):
            guard let target = try realm.object(ofType: "Target", key: key) else { return .string("dangling \(key)") }
            return try target.value(forKey: "name")
        case .list(let items): return .list(try items.map { try resolved($0, realm) })
        case .map(let entries): return .map(try entries.mapValues { try resolved($0, realm) })
        default: return value
        }
    }

    @Test func everyTypeInEveryShapeIsStoredQueriedAndSorted() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        let realm = try Realm(path: file)
        let items = try realm.objects("Item")
        let one = try #require(try realm.object(ofType: "Item", forPrimaryKey: .int(1)))
        let two = try #require(try realm.object(ofType: "Item", forPrimaryKey: .int(2)))
        for (name, sample, shape) in try Self.properties() {
            let isLink = sample.type == .object
            // Stored and read back (a link by its target's primary key).
            let stored = try resolved(try one.value(forKey: name), realm)
            let storedLow = try resolved(try two.value(forKey: name), realm)
            switch shape {
            case .required:
                #expect(stored == sample.high && storedLow == sample.low, "\(name): \(stored), \(storedLow)")
            case .optional:
                #expect(stored == sample.high && storedLow == .null, "\(name): \(stored), \(storedLow)")
            case .list:
                #expect(
                    stored == .list([sample.high, sample.low]) && storedLow == .list([sample.low]), "\(name): \(stored)"
                )
            case .set:
                // A set in Realm's order: low before high.
                #expect(
                    stored == .list([sample.low, sample.high]) && storedLow == .list([sample.low]), "\(name): \(stored)"
                )
            case .map:
                #expect(
                    stored == .map(["k": sample.high, "j": sample.low]) && storedLow == .map(["k": sample.low]),
                    "\(name): \(stored)")
            }
            // Queried: a link by a property of its target, a value by an argument of its type.
            let path = isLink ? "\(name).name" : name
            let value = sample.high
            func matches(_ predicate: String, _ arguments: [Value] = [value]) throws -> [Int64] {
                do { return try ids(try items.filter(predicate, arguments: arguments).sorted(byKeyPath: "id")) } catch {
                    Issue.record("\(name): \(predicate): \(error)")
                    return []
                }
            }
            switch shape {
            case .required:
                #expect(try matches("\(path) == $0") == [1], "\(name)")
                #expect(try matches("\(path) != $0") == [2], "\(name)")
            case .optional:
                #expect(try matches("\(path) == $0") == [1], "\(name)")
                #expect(try matches("\(name) == nil", []) == [2], "\(name)")
            case .list, .set:
                #expect(try matches("ANY \(path) == $0") == [1], "\(name)")
                #expect(try matches("\(name).@count == 2", []) == [1], "\(name)")
            case .map:
                let keyPath = isLink ? "\(name)['k'].name" : "\(name)['k']"
                #expect(try matches("\(keyPath) == $0") == [1], "\(name)")
                #expect(try matches("\(name).@keys == 'j'", []) == [1], "\(name)")
                #expect(try matches("\(name).@count == 1", []) == [2], "\(name)")
            }
            // Sorted: low before high, null first.
            if shape == .required || shape == .optional {
                let order = try ids(try items.sorted(byKeyPath: path))
                #expect(order == [2, 1], "\(name): sorted \(order)")
            }
        }
        let report = try realm.checkIntegrity()
        #expect(report.objects["Item"] == 2 && report.warnings.isEmpty)
    }

    /// The labels of the embedded objects a value holds (a to-one link, a list, a dictionary).
    func labels(_ value: Value, _ realm: Realm) throws -> Value {
        switch value {
        case .link(let key):
            guard let part = try realm.readView.row(classIndex: try realm.classIndex("Part"), key: key) else {
                return .string("gone \(key)")
            }
            return part.first ?? .null
        case .list(let items): return .list(try items.map { try labels($0, realm) })
        case .map(let entries): return .map(try entries.mapValues { try labels($0, realm) })
        default: return value
        }
    }

    @Test func embeddedObjectsInEveryShapeAreStoredQueriedAndSorted() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        let realm = try Realm(path: file)
        #expect(realm.schema["Part"]?.isEmbedded == true)
        let items = try realm.objects("Item")
        let one = try #require(try realm.object(ofType: "Item", forPrimaryKey: .int(1)))
        let two = try #require(try realm.object(ofType: "Item", forPrimaryKey: .int(2)))
        let (walk, alpha) = (Value.string("walk"), Value.string("alpha"))
        func matches(_ predicate: String, _ arguments: [Value] = [walk]) throws -> [Int64] {
            do { return try ids(try items.filter(predicate, arguments: arguments).sorted(byKeyPath: "id")) } catch {
                Issue.record("\(predicate): \(error)")
                return []
            }
        }
        for shape in Self.embeddedShapes {
            let name = Self.embeddedName(shape)
            let high = try labels(try one.value(forKey: name), realm)
            let low = try labels(try two.value(forKey: name), realm)
            switch shape {
            case .optional:
                #expect(high == walk && low == .null, "\(name): \(high), \(low)")
                #expect(try matches("\(name).label == $0") == [1])
                #expect(try matches("\(name).inner.label == 'walk-inner'", []) == [1])
                #expect(try matches("\(name) == nil", []) == [2])
                #expect(try ids(try items.sorted(byKeyPath: "\(name).label")) == [2, 1], "\(name): null sorts first")
            case .list:
                #expect(high == .list([walk, alpha]) && low == .list([alpha]), "\(name): \(high), \(low)")
                #expect(try matches("ANY \(name).label == $0") == [1])
                #expect(try matches("ANY \(name).inner.label == 'alpha-inner'", []) == [1, 2])
                #expect(try matches("\(name).@count == 2", []) == [1])
            case .map:
                #expect(high == .map(["k": walk, "j": alpha]) && low == .map(["k": alpha]), "\(name): \(high), \(low)")
                #expect(try matches("\(name)['k'].label == $0") == [1])
                #expect(try matches("\(name).@keys == 'j'", []) == [1])
                #expect(try matches("\(name).@count == 1", []) == [2])
            case .required, .set:
                break
            }
        }
        // 5 parts in item 1 (1 + 2 + 2) and 2 in item 2 (0 + 1 + 1), each holding an inner one.
        #expect(try realm.storedObjectCount("Part") == 2 * (5 + 2))
        let report = try realm.checkIntegrity()
        #expect(report.objects["Part"] == 14 && report.warnings.isEmpty, "\(report.objects)")
        // The command line: the class is refused on its own, and shown nested in its parent.
        let refused = try CLI.run(["query", file, "Part"])
        #expect(
            refused.stderr.contains(
                "Part is embedded: its objects live in Item.part_optional, Item.part_list, Item.part_map, Part.inner"),
            "\(refused.stderr)")
        let line = try CLI.run([
            "query", file, "Item", "id == 2", "--format", "line", "--columns", "part_optional,part_list",
        ])
        #expect(
            line.stdout == #"""
                part_optional = null
                    part_list = [Part{label: "alpha", inner: Part{label: "alpha-inner", inner: null}}]

                """#, "\(line.stdout) \(line.stderr)")
    }

    @Test func everyTypeInEveryShapeShowsInTheExplorer() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        let realm = try Realm(path: file)
        let formatter = ValueFormatter(realm: realm)
        let schema = try #require(realm.schema["Item"])
        let one = try #require(try realm.object(ofType: "Item", forPrimaryKey: .int(1)))
        let two = try #require(try realm.object(ofType: "Item", forPrimaryKey: .int(2)))
        for (name, sample, shape) in try Self.properties() {
            let property = try #require(schema[name])
            let cell = formatter.cell(one, property)
            let low = formatter.cell(two, property)
            #expect(!cell.text.hasPrefix("⚠") && !low.text.hasPrefix("⚠"), "\(name): \(cell.text) / \(low.text)")
            switch shape {
            case .required: #expect(cell.text == sample.highCell, "\(name): \(cell.text)")
            case .optional:
                #expect(cell.text == sample.highCell && !cell.isNull, "\(name): \(cell.text)")
                #expect(low.isNull, "\(name): \(low.text)")
            case .list: #expect(cell.text.hasPrefix("[2] " + sample.highCell), "\(name): \(cell.text)")
            case .set:
                #expect(cell.text.hasPrefix("{2} ") && cell.text.contains(sample.highCell), "\(name): \(cell.text)")
            case .map:
                #expect(
                    cell.text.hasPrefix("{2} ") && cell.text.contains("k: " + sample.highCell), "\(name): \(cell.text)")
            }
        }
    }

    @Test func everyTypeInEveryShapeRoundTripsThroughSchemaJSONAndCSV() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        let schema = try CLI.run(["schema", file, "--json"])
        try #require(schema.status == 0, "\(schema.stderr)")
        for (name, sample, shape) in try Self.properties() {
            let form = shape.schemaForm(sample.schemaName, isLink: sample.type == .object)
            #expect(schema.stdout.contains("\"\(name)\": \"\(form)\""), "\(name) is not \(form) in \(schema.stdout)")
        }
        for shape in Self.embeddedShapes {
            let form = shape.schemaForm("Part", isLink: true)
            #expect(
                schema.stdout.contains("\"\(Self.embeddedName(shape))\": \"\(form)\""), "\(form) in \(schema.stdout)")
        }
        #expect(schema.stdout.contains(#""name": "Part",\#n      "embedded": true,"#), "\(schema.stdout)")
        let exported = try CLI.run(["export", file])
        try #require(exported.status == 0, "\(exported.stderr)")
        // Embedded objects are nested in their parents, never a class of the document.
        #expect(
            exported.stdout.contains(#""part_optional":{"label":"walk","inner":{"label":"walk-inner","inner":null}}"#),
            "\(exported.stdout)")
        #expect(!exported.stdout.contains(#""Part":"#), "\(exported.stdout)")
        let copy = try scratch.createRealm("copy.realm", schema: try scratch.write("schema-again.json", schema.stdout))
        let imported = try CLI.run(["import", copy, try scratch.write("export.json", exported.stdout)])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try CLI.run(["export", copy]).stdout == exported.stdout)

        let csv = try CLI.run(["export", file, "--class", "Item", "--format", "csv"])
        try #require(csv.status == 0, "\(csv.stderr)")
        let fromCSV = try scratch.createRealm("csv.realm", schema: scratch.path("schema.json"))
        _ = try CLI.run(["import", fromCSV, "-"], stdin: #"{"Target": [{"name": "a"}, {"name": "b"}]}"#)
        let csvImported = try CLI.run([
            "import", fromCSV, "--class", "Item", try scratch.write("items.csv", csv.stdout),
        ])
        #expect(csvImported.status == 0, "\(csvImported.stderr)")
        #expect(try CLI.run(["export", fromCSV]).stdout == exported.stdout)
        let check = try CLI.run(["check", copy])
        #expect(check.status == 0, "\(check.stderr)")
    }
}
