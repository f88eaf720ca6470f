import Foundation
import Testing
@testable import RealmEngine

/// Queries through links answered from the far end (`LinkPlan`): every answer equals the
/// object-by-object evaluation, including the cases the plan must leave alone (a nil link
/// matches `!= 'x'` and `== nil`; NONE and ALL hold over an empty list).
@Suite struct LinkPlanTests {
    static let schema = Schema([
        ObjectSchema(
            name: "Author",
            properties: [
                Property(name: "name", type: .string, isIndexed: true),
                Property(name: "born", type: .int, isOptional: true),
            ]),
        ObjectSchema(
            name: "Book",
            properties: [
                Property(name: "title", type: .string),
                Property(name: "authors", type: .object, isList: true, objectClassName: "Author"),
                Property(name: "editor", type: .object, objectClassName: "Author"),
            ]),
        ObjectSchema(
            name: "Review",
            properties: [
                Property(name: "stars", type: .int),
                Property(name: "book", type: .object, objectClassName: "Book"),
            ]),
    ])

    /// 60 authors, 200 books (lists of 0–3 authors with repeats, every fifth editor nil),
    /// 400 reviews (every seventh without a book); deterministic.
    static func makeRealm(_ dir: TempDir) throws -> Realm {
        let realm = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: dir.path("books.realm")), schema: schema))
        var generator = SeededGenerator(seed: 7)
        try realm.write {
            var authors: [DynamicObject] = []
            for i in 0..<60 {
                let name = ["王", "Wang ", "wang", "李", "Li "][i % 5] + "\(i)"
                authors.append(
                    try realm.create(
                        "Author", ["name": .string(name), "born": i % 4 == 0 ? .null : .int(Int64(1900 + i))]))
            }
            var books: [DynamicObject] = []
            for i in 0..<200 {
                let count = Int(generator.next() % 4)
                let list = (0..<count).map { _ in Value.link(authors[Int(generator.next() % 60)].key) }
                let editor: Value = i % 5 == 0 ? .null : .link(authors[Int(generator.next() % 60)].key)
                books.append(
                    try realm.create("Book", ["title": .string("t\(i)"), "authors": .list(list), "editor": editor]))
            }
            for i in 0..<400 {
                let book: Value = i % 7 == 0 ? .null : .link(books[Int(generator.next() % 200)].key)
                _ = try realm.create("Review", ["stars": .int(Int64(i % 5)), "book": book])
            }
        }
        return realm
    }

    /// The query's answer, and the answer of evaluating it on every object (no plan).
    func answers(_ realm: Realm, _ className: String, _ text: String) throws -> (
        planned: [ObjectKey], plain: [ObjectKey], plan: String
    ) {
        let snapshot = try realm.snapshot
        let classIndex = try #require(realm.schema.objectSchemas.firstIndex { $0.name == className })
        let query = try BoundQuery.parse(text, classIndex: classIndex, schema: snapshot.schema, arguments: [])
        let all = try snapshot.keys(classIndex: classIndex)
        return (
            try query.run(in: snapshot, candidates: nil), try query.run(in: snapshot, candidates: all),
            query.planDescription
        )
    }

    @Test(arguments: [
        ("Book", "ANY authors.name BEGINSWITH '王'"),
        ("Book", "authors.name BEGINSWITH[c] 'wang'"),
        ("Book", "authors.name == 'Li 4'"),
        ("Book", "authors.born > 1930 AND title != 't3'"),
        ("Book", "authors.born BETWEEN {1910, 1920}"),
        ("Book", "authors.name IN {'王0', '李3', 'nobody'}"),
        ("Book", "editor.name CONTAINS '1'"),
        ("Review", "book.authors.name BEGINSWITH '王'"),
        ("Review", "book.editor.born >= 1950 AND stars > 2"),
    ])
    func plannedQueriesAnswerAsTheObjectByObjectEvaluation(className: String, text: String) throws {
        let dir = TempDir()
        let realm = try Self.makeRealm(dir)
        let (planned, plain, plan) = try answers(realm, className, text)
        #expect(plan.contains("then backlinks of"), "not planned from the far end: \(plan)")
        #expect(planned == plain)
        #expect(!plain.isEmpty, "the data should give this query some matches")
    }

    /// When the link comparison is the whole predicate, the objects found from the far end are
    /// the answer: the plan says so and checks no candidate again; with another AND term it does.
    @Test(arguments: [
        ("Book", "ANY authors.name BEGINSWITH '王'", true),
        ("Book", "authors.name IN {'王0', '李3', 'nobody'}", true),
        ("Review", "book.authors.name BEGINSWITH '王'", true),
        ("Book", "editor.name CONTAINS '1'", true),
        ("Book", "authors.born > 1930 AND title != 't3'", false),
        ("Review", "book.editor.born >= 1950 AND stars > 2", false),
    ])
    func aLoneLinkComparisonIsAnsweredFromTheFarEndAlone(className: String, text: String, exact: Bool) throws {
        let dir = TempDir()
        let realm = try Self.makeRealm(dir)
        let (planned, plain, plan) = try answers(realm, className, text)
        #expect(plan.hasSuffix("(exact)") == exact, "\(plan)")
        #expect(planned == plain)
    }

    @Test(arguments: [
        ("Book", "ANY authors.name != '王0'"),
        ("Book", "editor.name != '王5'"),
        ("Book", "editor.born == nil"),
        ("Book", "NONE authors.name BEGINSWITH '王'"),
        ("Book", "ALL authors.name BEGINSWITH '王'"),
        ("Book", "authors.@count > 1"),
        ("Book", "ANY authors.name BEGINSWITH '王' OR title == 't1'"),
        ("Review", "book.editor == nil"),
    ])
    func queriesANilLinkCanMatchAreNotPlanned(className: String, text: String) throws {
        let dir = TempDir()
        let realm = try Self.makeRealm(dir)
        let (planned, plain, plan) = try answers(realm, className, text)
        #expect(!plan.contains("backlinks"), "planned from the far end: \(plan)")
        #expect(planned == plain)
    }
}
