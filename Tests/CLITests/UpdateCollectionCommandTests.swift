import Foundation
import Testing

/// `realmtui update --set` on collections: `tags+=x` adds to a set or appends to a list,
/// `tags-=x` removes from a set (every equal element of a list), `attrs.key=VALUE` puts a
/// dictionary entry and `attrs-=key` removes one; each checked with `query --format json`, and
/// each wrong use an `error:` line that writes nothing.
@Suite(.tags(.multiProcess)) struct UpdateCollectionCommandTests {
    static let schema = #"""
        [{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "name": "string", "tags": "string<>",
          "nums": "double<>", "words": "string[]", "scores": "double?[]", "attrs": "string{}", "counts": "int?{}",
          "pets": "Pet{}", "petSet": "Pet<>", "petList": "Pet[]", "any": "mixed"}},
         {"name": "Pet", "primaryKey": "name", "properties": {"name": "string"}}]
        """#
    static let data = #"""
        {"Pet": [{"name": "rex"}, {"name": "tom"}],
         "Item": [{"id": 1, "name": "one", "tags": ["a", "b"], "nums": [1.5], "words": ["x", "y", "x"], "scores": [1, null, 2, 1.0],
                   "attrs": {"color": "red"}, "counts": {"x": 1}, "pets": {"dog": "rex"}, "petSet": ["rex"], "petList": ["rex", "tom", "rex"]},
                  {"id": 2, "name": "two", "tags": [], "nums": [], "words": [], "scores": [], "attrs": {}, "counts": {}, "pets": {},
                   "petSet": [], "petList": []}]}
        """#

    func database(_ scratch: Scratch) throws -> String {
        let file = try scratch.createRealm("u.realm", schema: try scratch.write("schema.json", Self.schema))
        let imported = try CLI.run(["import", file, "-"], stdin: Self.data)
        try #require(imported.status == 0, "\(imported.stderr)")
        return file
    }

    /// The JSON object of the item with `id`, as `query --format json` writes it.
    func item(_ file: String, _ id: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let result = try CLI.run(["query", file, "Item", "id == \(id)", "--format", "json"])
        try #require(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        let objects = try #require(
            parseJSON(result.stdout) as? [[String: Any]], "\(result.stdout)", sourceLocation: sourceLocation)
        return try #require(objects.first, "\(result.stdout)", sourceLocation: sourceLocation)
    }

    func update(
        _ file: String, _ predicate: String, _ sets: String..., sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try CLI.run(["update", file, "Item", predicate] + sets.flatMap { ["--set", $0] })
        #expect(result.status == 0, "\(sets): \(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test func addToAndRemoveFromASet() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        try update(file, "TRUEPREDICATE", "tags+=c", "tags+=a", "tags-=b", "nums+=2", "nums-=1.50")
        let one = try item(file, 1)
        let two = try item(file, 2)
        #expect(one["tags"] as? [String] == ["a", "c"], "\(one)")
        #expect(two["tags"] as? [String] == ["a", "c"], "\(two)")
        #expect(one["nums"] as? [Double] == [2], "\(one)")
        // Removing what is not there changes nothing, as Realm's remove does.
        try update(file, "id == 2", "tags-=zzz", "nums-=7")
        #expect(try item(file, 2)["tags"] as? [String] == ["a", "c"])
    }

    @Test func appendToAndRemoveEveryEqualElementFromAList() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        try update(file, "id == 1", "words+=z", "words+=x")
        #expect(try item(file, 1)["words"] as? [String] == ["x", "y", "x", "z", "x"])
        try update(file, "id == 1", "words-=x", "scores-=1", "scores-=null", "scores+=null")
        let one = try item(file, 1)
        #expect(one["words"] as? [String] == ["y", "z"], "\(one)")
        let scores = try #require(one["scores"] as? [Any], "\(one)")
        #expect(scores.count == 2 && (scores[0] as? Double) == 2 && scores[1] is NSNull, "\(scores)")
    }

    @Test func putAndRemoveDictionaryEntries() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        try update(
            file, "id == 1", "attrs.color=blue", "attrs.size=L", "counts.y=null", "counts.z=7", "counts-=x",
            #"attrs.quoted="null""#, "attrs.=empty key")
        let one = try item(file, 1)
        #expect(
            one["attrs"] as? [String: String] == ["color": "blue", "size": "L", "quoted": "null", "": "empty key"],
            "\(one)")
        let counts = try #require(one["counts"] as? [String: Any], "\(one)")
        #expect(counts.count == 2 && counts["y"] is NSNull && counts["z"] as? Int == 7, "\(counts)")
        try update(file, "id == 1", "attrs-=color", "attrs-=nothing")
        #expect(try item(file, 1)["attrs"] as? [String: String] == ["size": "L", "quoted": "null", "": "empty key"])
        // What a query sees, not just what export writes.
        let found = try CLI.run(["query", file, "Item", "attrs['size'] == 'L'", "--format", "count"])
        #expect(found.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(found.stdout)\(found.stderr)")
    }

    @Test func linksByPrimaryKey() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        try update(
            file, "id == 2", "pets.cat=tom", "pets.none=null", "petSet+=tom", "petSet+=rex", "petList+=tom",
            "petList+=tom")
        let two = try item(file, 2)
        let pets = try #require(two["pets"] as? [String: Any], "\(two)")
        #expect(pets.count == 2 && pets["cat"] as? String == "tom" && pets["none"] is NSNull, "\(pets)")
        #expect(Set(two["petSet"] as? [String] ?? []) == ["rex", "tom"], "\(two)")
        #expect(two["petList"] as? [String] == ["tom", "tom"], "\(two)")
        try update(file, "id == 1", "petList-=rex", "petSet-=rex", "pets-=dog")
        let one = try item(file, 1)
        #expect(one["petList"] as? [String] == ["tom"], "\(one)")
        #expect(one["petSet"] as? [String] == [], "\(one)")
        #expect(one["pets"] as? [String: String] == [:], "\(one)")
    }

    @Test func wrongUsesWriteNothing() throws {
        let scratch = try Scratch()
        let file = try database(scratch)
        let cases: [(String, String)] = [
            ("name+=x", "list or set"),  // += on a scalar
            ("name-=x", "list or set"),
            ("any+=1", "list or set"),  // a Mixed is not a list property
            ("name.k=x", "not a dictionary"),  // .key on a non-dictionary
            ("tags.k=x", "not a dictionary"),
            ("attrs+=x", "attrs.KEY=VALUE"),  // += on a dictionary
            ("counts.k=abc", "int"),  // a value of the wrong type
            ("nums+=abc", "double"),
            ("tags+=null", "tags"),  // nil in a set of required strings
            ("petSet+=null", "petSet"),  // nil in a set of links
            ("petList+=nobody", "nobody"),  // no such primary key
            ("petSet-=nobody", "nobody"),
            ("attrs.a.b=1", "'.'"),  // the key after the first dot: Realm refuses 'a.b'
            ("attrs.$x=1", "'$'"),
            ("attrs-=a.b", "'.'"),
            ("nosuch+=1", "nosuch"),
        ]
        for (set, message) in cases {
            try expectUnchanged(file) {
                // A valid change first: it must not be written either.
                let result = try CLI.run(["update", file, "Item", "TRUEPREDICATE", "--set", "tags+=new", "--set", set])
                expectFailure(result, contains: message)
            }
        }
        #expect(try item(file, 1)["tags"] as? [String] == ["a", "b"])
    }

    @Test func helpNamesTheForms() throws {
        let help = try CLI.run(["update", "--help"])
        #expect(help.status == 0, "\(help.stderr)")
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for form in ["tags+=", "tags-=", "attrs.color=", "attrs-=color", "every equal element"] {
            #expect(text.contains(form), "\(form) missing from: \(help.stdout)")
        }
    }
}
