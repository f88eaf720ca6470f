import Foundation
import Testing
@testable import RealmEngine

/// A small world for the language tests: people with dogs (a list), a best dog (a link), tags and
/// scores (primitive lists); dogs see their owners through linking objects.
func makePeopleStore() throws -> InMemoryObjectStore {
    let schema = Schema([
        ObjectSchema(
            name: "Person",
            properties: [
                Property(name: "name", type: .string, isIndexed: true),
                Property(name: "age", type: .int, isOptional: true),
                Property(name: "height", type: .double, isOptional: true),
                Property(name: "birthday", type: .date, isOptional: true),
                Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
                Property(name: "best", type: .object, objectClassName: "Dog"),
                Property(name: "tags", type: .string, isList: true),
                Property(name: "scores", type: .int, isList: true),
                Property(name: "photo", type: .data, isOptional: true),
            ]),
        ObjectSchema(
            name: "Dog",
            properties: [
                Property(name: "name", type: .string),
                Property(name: "age", type: .int),
                Property(
                    name: "owners", type: .linkingObjects, objectClassName: "Person", linkOriginPropertyName: "dogs"),
            ]),
    ])
    try schema.validate()
    let store = InMemoryObjectStore(schema: schema)
    let rex = try store.create("Dog", [.string("Rex"), .int(3)])  // 0
    let fido = try store.create("Dog", [.string("Fido"), .int(7)])  // 1
    let bello = try store.create("Dog", [.string("Bello"), .int(1)])  // 2
    _ = try store.create("Dog", [.string("Stray"), .int(5)])  // 3, no owner
    func date(_ s: String) -> Value { Timestamp.parseISO8601(s).map(Value.date) ?? .null }
    // 0 Ann: two dogs
    try store.create(
        "Person",
        [
            .string("Ann"), .int(30), .double(1.70), date("1990-05-01T10:00:00Z"),
            .list([.link(rex), .link(fido)]), .link(fido), .list([.string("runner"), .string("Café")]),
            .list([.int(3), .int(5)]), .data(Data([1, 2, 3])),
        ])
    // 1 Bob: no dogs, nil age
    try store.create(
        "Person", [.string("Bob"), .null, .double(1.80), .null, .list([]), .null, .list([]), .list([]), .null])
    // 2 Émile: one dog, listed twice
    try store.create(
        "Person",
        [
            .string("Émile"), .int(45), .null, date("1975-01-02T03:04:05.5Z"),
            .list([.link(bello), .link(bello)]), .link(bello), .list([.string("cafe")]),
            .list([.int(10)]), .data(Data([2, 3])),
        ])
    // 3 ann (lower case): same age as Ann
    try store.create(
        "Person",
        [
            .string("ann"), .int(30), .double(1.60), .null, .list([]), .null,
            .list([.string("x")]), .list([]), .null,
        ])
    return store
}

/// Runs a query on class `className` and returns the `name`s of the results, in order.
func names(
    _ query: String, _ arguments: [Value] = [], on className: String = "Person",
    store: InMemoryObjectStore? = nil
) throws -> [String] {
    let store = try store ?? makePeopleStore()
    let cls = try store.classIndex(className)
    let q = try BoundQuery.parse(query, classIndex: cls, schema: store.schema, arguments: arguments)
    return try q.run(in: store, candidates: nil).map { key in
        if case .string(let s) = try store.value(className, key, "name") { return s }
        return "?"
    }
}

func queryError(_ query: String, _ arguments: [Value] = [], on className: String = "Person") throws -> (String, Int)? {
    let store = try makePeopleStore()
    do {
        _ = try BoundQuery.parse(
            query, classIndex: try store.classIndex(className), schema: store.schema, arguments: arguments)
        return nil
    } catch RealmError.query(let message, let column) {
        return (message, column)
    }
}

@Suite struct QueryLanguageTests {
    @Test func betweenAndIn() throws {
        #expect(try names("age BETWEEN {30, 40}") == ["Ann", "ann"])
        #expect(try names("height BETWEEN {1.65, 1.75}") == ["Ann"])
        #expect(try names("age IN {45, 30}") == ["Ann", "Émile", "ann"])
        #expect(try names("name IN $0", [.list([.string("Bob"), .string("Zed")])]) == ["Bob"])
        #expect(try names("'cafe' IN tags") == ["Émile"])
        #expect(try names("name IN[c] {'ANN'}") == ["Ann", "ann"])
        #expect(try names("ANY dogs.age BETWEEN {6, 8}") == ["Ann"])
    }

    @Test func stringOperators() throws {
        #expect(try names("name LIKE 'A?n'") == ["Ann"])
        #expect(try names("name LIKE[c] 'a*'") == ["Ann", "ann"])
        #expect(try names("name LIKE '?mile'") == ["Émile"])
        #expect(try names("name LIKE '*'") == ["Ann", "Bob", "Émile", "ann"])
        #expect(try names("name ==[d] 'Emile'") == ["Émile"])
        #expect(try names("name ==[cd] 'emile'") == ["Émile"])
        #expect(try names("name BEGINSWITH[d] 'E'") == ["Émile"])
        #expect(try names("ANY tags ==[cd] 'CAFE'") == ["Ann", "Émile"])
        #expect(try names("ANY tags == 'cafe'") == ["Émile"])
        #expect(try names("name != 'Ann'") == ["Bob", "Émile", "ann"])
        #expect(try names("photo BEGINSWITH $0", [.data(Data([1, 2]))]) == ["Ann"])
        #expect(try names("photo == B64\"AgM=\"") == ["Émile"])
    }

    @Test func nullSemantics() throws {
        #expect(try names("age == nil") == ["Bob"])
        #expect(try names("age != 30") == ["Bob", "Émile"])
        #expect(try names("age < 100") == ["Ann", "Émile", "ann"])
        #expect(try names("age > -1") == ["Ann", "Émile", "ann"])
        #expect(try names("best == nil") == ["Bob", "ann"])
        #expect(try names("best.name == nil") == ["Bob", "ann"])
        #expect(try names("best.age > 2") == ["Ann"])
        #expect(try names("nil == nil") == ["Ann", "Bob", "Émile", "ann"])
    }

    @Test func quantifiers() throws {
        #expect(try names("ALL dogs.age > 2") == ["Ann", "Bob", "ann"])
        #expect(try names("NONE dogs.age > 2") == ["Bob", "Émile", "ann"])
        #expect(try names("dogs.age > 5") == ["Ann"])
        #expect(try names("SOME scores >= 10") == ["Émile"])
    }

    @Test func aggregates() throws {
        #expect(try names("dogs.@count == 0") == ["Bob", "ann"])
        #expect(try names("dogs.@count == 2") == ["Ann", "Émile"])
        #expect(try names("scores.@sum == 0") == ["Bob", "ann"])
        #expect(try names("scores.@min == nil") == ["Bob", "ann"])
        #expect(try names("scores.@max == nil") == ["Bob", "ann"])
        #expect(try names("scores.@avg == nil") == ["Bob", "ann"])
        #expect(try names("scores.@avg == 4") == ["Ann"])
        #expect(try names("dogs.age.@sum == 10") == ["Ann"])
        #expect(try names("dogs.age.@max > 5") == ["Ann"])
        #expect(try names("dogs.age.@avg < 2") == ["Émile"])
        #expect(try names("name.@size == 3") == ["Ann", "Bob", "ann"])
    }

    @Test func cocoaCollectionOperatorForm() throws {
        #expect(try names("dogs.@sum.age == 10") == names("dogs.age.@sum == 10"))
        #expect(try names("dogs.@max.age > 5") == ["Ann"])
        #expect(try names("dogs.@avg.age < 2") == ["Émile"])
        #expect(try names("dogs.@min.age < 2") == names("dogs.age.@min < 2"))
        #expect(throws: RealmError.self) { try names("name.@max.age > 1") }
    }

    @Test func subqueries() throws {
        #expect(try names("SUBQUERY(dogs, $d, $d.age > 2).@count == 2") == ["Ann"])
        #expect(try names("SUBQUERY(dogs, $d, $d.age < 2 AND $d.name BEGINSWITH 'B').@count > 0") == ["Émile"])
        #expect(try names("SUBQUERY(dogs, $d, TRUEPREDICATE).@count == 0") == ["Bob", "ann"])
        let error = try #require(try queryError("SUBQUERY(dogs, $d, $e.age > 2).@count > 0"))
        #expect(error.0.contains("$e"))
    }

    @Test func backlinks() throws {
        #expect(try names("owners.@count == 0", on: "Dog") == ["Stray"])
        #expect(try names("owners.@count == 2", on: "Dog") == ["Bello"])  // listed twice by Émile
        #expect(try names("ANY owners.name == 'Ann'", on: "Dog") == ["Rex", "Fido"])
        #expect(try names("@links.Person.best.@count > 0", on: "Dog") == ["Fido", "Bello"])
        #expect(try names("ANY @links.Person.dogs.age > 40", on: "Dog") == ["Bello"])
        #expect(try names("SUBQUERY(owners, $o, $o.age == 30).@count == 1", on: "Dog") == ["Rex", "Fido"])
    }

    @Test func dateLiterals() throws {
        #expect(try names("birthday == 1990-05-01@10:00:00") == ["Ann"])
        #expect(try names("birthday == 1990-05-01T10:00:00") == ["Ann"])
        #expect(try names("birthday == 1975-01-02@03:04:05:500000000") == ["Émile"])
        #expect(try names("birthday < T0:0") == [])
        #expect(try names("birthday > T641556000:0") == [])
        #expect(try names("birthday < T160000000:-1") == ["Émile"])
        #expect(try names("birthday >= T641556000:0") == ["Ann"])
        #expect(try names("birthday < 1980-01-01@00:00:00") == ["Émile"])
        #expect(try names("birthday > $0", [.date(Timestamp(seconds: 200_000_000))]) == ["Ann"])
        #expect(try names("birthday BETWEEN {1970-01-01@00:00:00, 2000-01-01T00:00:00}") == ["Ann", "Émile"])
        // A day the month does not have is an error, never the next month's first days.
        #expect(try queryError("birthday < 2021-02-30@00:00:00")?.0 == "invalid date literal '2021-02-30@00:00:00'")
        #expect(try queryError("birthday < 2021-04-31T00:00:00") != nil)
        #expect(try queryError("birthday < 2020-02-29@00:00:00") == nil)
        // A date without its time said "unexpected '-01'"; it now says how to write one.
        let bare = try queryError("birthday > 2020-01-01")
        #expect(bare?.0.contains("2020-01-01@00:00:00") == true, "\(String(describing: bare))")
        #expect(bare?.1 == 12)
        #expect(try queryError("birthday > 2020-01-01 AND age > 1")?.0.contains("2020-01-01@00:00:00") == true)
    }

    @Test func sortNullsAndCodePoints() throws {
        #expect(try names("TRUEPREDICATE SORT(age ASC)") == ["Bob", "Ann", "ann", "Émile"])
        #expect(try names("TRUEPREDICATE SORT(age DESC)") == ["Émile", "Ann", "ann", "Bob"])
        // Code-point order: uppercase ASCII < lowercase ASCII < É.
        #expect(try names("TRUEPREDICATE SORT(name ASC)") == ["Ann", "Bob", "ann", "Émile"])
        #expect(try names("TRUEPREDICATE SORT(best.age DESC, name ASC)") == ["Ann", "Émile", "Bob", "ann"])
        let store = try makePeopleStore()
        let keys = try store.keys(classIndex: 0)
        let sorted = try ResultOrdering.sort(
            keys, classIndex: 0, by: [SortDescriptor(keyPath: "height", ascending: false)], in: store)
        #expect(sorted.map(\.rawValue) == [1, 0, 3, 2])
    }

    @Test func distinctAndLimit() throws {
        #expect(try names("TRUEPREDICATE DISTINCT(age)") == ["Ann", "Bob", "Émile"])
        #expect(try names("TRUEPREDICATE SORT(name DESC) DISTINCT(age)") == ["Émile", "ann", "Bob"])
        #expect(try names("TRUEPREDICATE LIMIT(2)") == ["Ann", "Bob"])
        #expect(try names("TRUEPREDICATE SORT(name ASC) LIMIT(1)") == ["Ann"])
        #expect(try names("TRUEPREDICATE LIMIT(0)") == [])
        #expect(try names("age > 0 limit(5) sort(age desc)") == ["Émile", "Ann", "ann"])
        let store = try makePeopleStore()
        let distinct = try ResultOrdering.distinct(
            try store.keys(classIndex: 1), classIndex: 1, by: ["name"], in: store)
        #expect(distinct.count == 4)
    }

    @Test func argumentsAndFormats() throws {
        #expect(try names("age == %d AND name BEGINSWITH %@", [.int(30), .string("A")]) == ["Ann"])
        #expect(try names("%K == %@", [.string("name"), .string("Bob")]) == ["Bob"])
        #expect(try names("%K.age > %f", [.string("best"), .double(2.5)]) == ["Ann"])
        #expect(try names("age == $1 OR name == $0", [.string("Bob"), .int(45)]) == ["Bob", "Émile"])
        let store = try makePeopleStore()
        let bello = ObjectKey(2)
        #expect(try names("best == $0", [.link(bello)], store: store) == ["Émile"])
        #expect(try names("ANY dogs == $0", [.link(bello)], store: store) == ["Émile"])
    }

    @Test func literalsAndOperators() throws {
        #expect(try names("age == 0x1E") == ["Ann", "ann"])
        #expect(try names("age =< 30 && age => 30") == ["Ann", "ann"])
        #expect(try names("age <> 30 || !(age != 45)") == ["Bob", "Émile"])
        #expect(try names("height < inf AND height > -inf") == ["Ann", "Bob", "ann"])
        #expect(try names("FALSEPREDICATE OR NOT FALSEPREDICATE") == ["Ann", "Bob", "Émile", "ann"])
        #expect(try names("name == \"Bob\"") == ["Bob"])
        #expect(try names("name == 'Ann' and (age == 30 or age == nil)") == ["Ann"])
    }

    /// A nil link on a path through a collection reaches no objects (Realm skips it): no count,
    /// no value for ANY, nothing for ALL to fail on. On a path of to-one links alone it still
    /// reads as nil.
    @Test func aNilLinkOnAPathThroughACollectionReachesNothing() throws {
        #expect(try names("best.owners.@count == 0") == ["Bob", "ann"])
        #expect(try names("best.owners.@count == 1") == ["Ann"])
        #expect(try names("ANY best.owners.name == nil") == [])
        #expect(try names("ALL best.owners.age > 100") == ["Bob", "ann"])
        #expect(try names("best.name == nil") == ["Bob", "ann"])
    }

    /// The most negative hexadecimal literal is Int64.min (negating its magnitude trapped), and
    /// the literals around it are what they say.
    @Test func hexadecimalLiteralsAtInt64sEnds() throws {
        #expect(try names("age == -0x8000000000000000") == [])
        #expect(try names("age > -0x8000000000000000") == ["Ann", "Émile", "ann"])
        #expect(try names("age < 0x7FFFFFFFFFFFFFFF") == ["Ann", "Émile", "ann"])
        #expect(try names("age == -0x1E") == [])
        #expect(try names("age == +0x1E") == ["Ann", "ann"])
    }

    @Test func errorsSayWhereAndWhy() throws {
        let missingValue = try #require(try queryError("age <"))
        #expect(missingValue.0 == "expected a value after '<'")
        #expect(missingValue.1 == 6)
        let misspelled = try #require(try queryError("nmae == 'x'"))
        #expect(misspelled.0.contains("nmae") && misspelled.0.contains("name, age, height"))
        #expect(misspelled.1 == 1)
        let mismatch = try #require(try queryError("age == 'x'"))
        #expect(mismatch.0.contains("age") && mismatch.0.contains("int") && mismatch.0.contains("string"))
        #expect(mismatch.1 == 8)
        let deepPath = try #require(try queryError("best.nmae == 'x'"))
        #expect(deepPath.0.contains("Dog") && deepPath.1 == 6)
        #expect(try queryError("age == 1 SORT(age)") != nil)
        #expect(try queryError("age == $3") != nil)
        #expect(try queryError("name == 'unterminated") != nil)
        #expect(try queryError("dogs > 3") != nil)
        #expect(try queryError("age.@count > 1") != nil)
        #expect(try queryError("") != nil)
        #expect(try queryError("age == 1 )") != nil)
        #expect(try queryError("tags.@avg > 1") != nil)
        #expect(try queryError("name <[c] 'b'") != nil)
        #expect(try queryError("age ==[c] 3") != nil)
        #expect(try queryError("ANY best.age > 1") != nil)
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let depth = 10_000
        let text = String(repeating: "(", count: depth) + "age == 1" + String(repeating: ")", count: depth)
        let error = try #require(try queryError(text))
        #expect(error.0.contains("nested too deeply"))
        let nots = String(repeating: "NOT ", count: depth) + "age == 1"
        #expect(try queryError(nots) != nil)
        let fine = String(repeating: "(", count: 100) + "age == 30" + String(repeating: ")", count: 100)
        #expect(try names(fine) == ["Ann", "ann"])
        // Long flat chains are parsed iteratively.
        let chain = Array(repeating: "age == 30", count: 5_000).joined(separator: " OR ")
        #expect(try names(chain) == ["Ann", "ann"])
    }

    @Test func indexLookupPlanAndDependencies() throws {
        let store = try makePeopleStore()
        let q = try BoundQuery.parse("name == 'Bob' AND age == nil", classIndex: 0, schema: store.schema, arguments: [])
        #expect(q.planDescription == "index lookup on name")
        #expect(try q.run(in: store, candidates: nil) == [ObjectKey(1)])
        #expect(store.indexLookups == 1)
        #expect(try q.run(in: store, candidates: [ObjectKey(0)]) == [])
        let scan = try BoundQuery.parse(
            "name ==[c] 'bob' OR age == 1", classIndex: 0, schema: store.schema, arguments: [])
        #expect(scan.planDescription == "scan Person")
        #expect(q.dependencies == [0])
        let linked = try BoundQuery.parse(
            "best.age > 1 SORT(name ASC)", classIndex: 0, schema: store.schema, arguments: [])
        #expect(linked.dependencies == [0, 1])
        #expect(linked.hasOrdering && !q.hasOrdering)
        let back = try BoundQuery.parse("owners.@count > 0", classIndex: 1, schema: store.schema, arguments: [])
        #expect(back.dependencies == [0, 1])
        #expect(try back.matches(ObjectKey(0), in: store))
        #expect(try !back.matches(ObjectKey(3), in: store))
    }
}
