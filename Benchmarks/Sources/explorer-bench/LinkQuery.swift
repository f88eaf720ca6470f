import BenchSupport
import Foundation
import RealmEngine
import RealmTUI

// `explorer-bench --links N`: a query through links on N books (issue 30: `ANY authors.name
// BEGINSWITH '王'` over 1M books in under 1 s). Each book lists 1–3 of N/10 authors; an author's
// name starts with one of ten surnames ("王" one in ten). Reports, over `rounds` fresh Realm
// instances: the engine's count, and the explorer's Enter on the typed query → the first frame
// with the count; each checked against a count made object by object.

let linkSchema = Schema([
    ObjectSchema(name: "Author", properties: [
        Property(name: "id", type: .int, isPrimaryKey: true),
        Property(name: "name", type: .string),
    ]),
    ObjectSchema(name: "Book", properties: [
        Property(name: "id", type: .int, isPrimaryKey: true),
        Property(name: "title", type: .string),
        Property(name: "authors", type: .object, isList: true, objectClassName: "Author"),
    ]),
])

let linkSurnames = ["王", "李", "张", "刘", "陈", "Rossi", "Smith", "Müller", "Garcia", "Kim"]

func createBooks(_ path: String, books: Int) throws {
    var generator = SplitMix64(seed: 7)
    let realm = try Realm(path: path, schema: linkSchema)
    let authorCount = max(1, books / 10)
    var authors: [ObjectKey] = []
    try realm.write {
        for id in 0..<authorCount {
            let r = generator.next()
            let name = "\(linkSurnames[Int(r % 10)]) \(r >> 8 % 100_000)"
            let values: [String: Value] = ["id": .int(Int64(id)), "name": .string(name)]
            authors.append(try realm.create("Author", values).key)
        }
    }
    let batch = 250_000
    var done = 0
    while done < books {
        let end = min(books, done + batch)
        try realm.write {
            for id in done..<end {
                let r = generator.next()
                let links = (0...(r % 3)).map { i in Value.link(authors[Int((r >> (8 + 16 * i)) % UInt64(authorCount))]) }
                let values: [String: Value] = ["id": .int(Int64(id)), "title": .string("Book \(id)"), "authors": .list(links)]
                _ = try realm.create("Book", values)
            }
        }
        done = end
        FileHandle.standardError.write(Data("created \(done) books\n".utf8))
    }
}

/// Books with an author whose name starts with "王", counted by reading each book's list.
func booksByWang(_ realm: Realm) throws -> Int {
    let wang = Set(try realm.objects("Author").keys().filter { key in
        guard case .string(let name)? = try realm.object(ofType: "Author", key: key)?["name"] else { return false }
        return name.hasPrefix("王")
    })
    var count = 0
    for book in try realm.objects("Book") {
        guard case .list(let links)? = book["authors"] else { continue }
        if links.contains(where: { if case .link(let key) = $0 { wang.contains(key) } else { false } }) { count += 1 }
    }
    return count
}

@MainActor func linkQueryBenchmark(books: Int, rounds: Int) throws {
    let clock = ContinuousClock()
    let path = NSTemporaryDirectory() + "explorer-books-\(books).realm"
    if !FileManager.default.fileExists(atPath: path) {
        let took = try clock.measure { try createBooks(path, books: books) }
        print("created \(path) in \(formatted(seconds(took)))")
    }
    let query = "ANY authors.name BEGINSWITH '王'"
    let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), readOnly: true, createIfMissing: false)
    let expected = try booksByWang(try Realm(configuration: configuration))
    let grouped = expected.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    var engine: [Double] = []
    var explorer: [Double] = []
    for _ in 0..<rounds {
        var count = 0
        let took = try clock.measure {
            count = try Realm(configuration: configuration).objects("Book").filter(query).checkedCount()
        }
        guard count == expected else { fail("\(query): \(count) books, counted one by one \(expected)") }
        engine.append(seconds(took))

        let realm = try Realm(configuration: configuration)
        let session = ExplorerSession(realm: realm, path: path, readOnly: true, environment: [:])
        var driver = try session.makeDriver(width: 120, height: 40, hasColor: true)
        // The class list: Author, Book.
        driver.press(.down, .enter, .character("/"))
        driver.type(query)
        let shown = clock.measure {
            driver.press(.enter)
            _ = driver.screen
        }
        guard driver.screen.lines.last?.contains("\(grouped) objects") == true else {
            fail("the explorer does not show \(grouped) books:\n\(driver.screen.lines.joined(separator: "\n"))")
        }
        explorer.append(seconds(shown))
    }
    print("\(query) over \(books.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) books, \(grouped) match, \(rounds) rounds:")
    for (name, values) in [("  count (engine)", engine.sorted()), ("  typed in the explorer, Enter → count shown", explorer.sorted())] {
        guard let first = values.first, let last = values.last else { continue }
        printRow(name, "median \(formatted(values[values.count / 2])) (\(formatted(first))–\(formatted(last)))")
    }
}
