import ArgumentParser
import Foundation
import RealmEngine

/// `realmtui demo FILE [--objects N]`: a demo database to try the tool on, the same every time.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Generate a demo database (authors, books, reviews; CJK names, dates, lists).",
        discussion: """
            The content depends only on --objects (a fixed seed), so two runs give the same objects. \
            N books; N/4+1 authors; 2N reviews. Try:
              realmtui demo demo.realm && realmtui query demo.realm Book 'ANY authors.country == "中国"' --sort -published
            """
    )

    @Argument(help: "The database file to create (must not exist, or be empty).", completion: .file())
    var file: String

    @Option(name: .long, help: "How many books (authors and reviews scale with it).")
    var objects: Int = 200

    func validate() throws {
        if objects < 0 || objects > 10_000_000 {
            throw ValidationError("--objects must be between 0 and 10000000, got \(objects)")
        }
    }

    func run() throws {
        let schema = try Schema(realmJSJSON: Data(DemoData.schemaJSON.utf8))
        let (realm, existed) = try Creation.createNew(file, schema: schema)
        do {
            let counts = try realm.write { try DemoData.fill(realm, books: objects) }
            Console.line("created \(file): \(counts.authors) authors, \(counts.books) books, \(counts.reviews) reviews")
        } catch {
            if !existed { Creation.removeFile(file) }
            throw error
        }
    }
}

/// The demo's schema and generator.
enum DemoData {
    static let schemaJSON = """
        [
          {"name": "Author", "primaryKey": "id", "properties": {
            "id": "int", "name": {"type": "string", "indexed": true}, "country": "string?", "born": "date?",
            "books": {"type": "linkingObjects", "objectType": "Book", "property": "authors"}}},
          {"name": "Book", "primaryKey": "isbn", "properties": {
            "isbn": "string", "title": {"type": "string", "indexed": true}, "authors": "Author[]",
            "published": "date", "pages": "int", "price": "double?", "inStock": "bool", "tags": "string[]",
            "cover": "data?",
            "reviews": {"type": "linkingObjects", "objectType": "Review", "property": "book"}}},
          {"name": "Review", "properties": {
            "book": "Book?", "reviewer": "string", "rating": "int", "text": "string", "created": "date"}}
        ]
        """

    /// SplitMix64: a small generator whose sequence is fixed by its seed on every platform.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
        }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }
    }

    static let surnames = [
        "王", "李", "张", "刘", "陈", "杨", "黄", "赵", "周", "吴", "佐藤", "鈴木", "高橋", "김", "이", "Smith", "García", "Müller",
    ]
    static let givenNames = [
        "伟", "芳", "娜", "秀英", "敏", "静", "强", "磊", "洋", "艳", "太郎", "花子", "민준", "서연", "Anna", "José", "Lena",
    ]
    static let countries = ["中国", "日本", "한국", "Deutschland", "España", "United States", nil]
    static let titleWords = [
        "春", "夏", "秋", "冬", "山", "海", "风", "月", "星", "梦", "城", "路", "花", "雪", "书", "夜",
        "The", "Garden", "River", "Light", "Stone", "Road",
    ]
    static let tagNames = ["小说", "历史", "科幻", "诗歌", "童书", "classic", "bestseller", "新书"]
    static let reviewTexts = ["很好看！", "一般般。", "值得一读", "翻译很好", "Great read.", "読みやすい", "推荐给朋友", "结局有点仓促"]

    /// Adds the objects; the caller holds the write transaction.
    static func fill(_ realm: Realm, books: Int) throws -> (authors: Int, books: Int, reviews: Int) {
        var rng = Generator(state: 20_240_601)
        let authorCount = books / 4 + 1
        let base: Int64 = 946_684_800  // 2000-01-01T00:00:00Z
        for id in 1...authorCount {
            let name = rng.pick(surnames) + rng.pick(givenNames)
            var values: [String: ObjectInput] = ["id": .value(.int(Int64(id))), "name": .value(.string(name))]
            if let country = rng.pick(countries) { values["country"] = .value(.string(country)) }
            if rng.int(0...9) > 0 {
                let born = Int64(rng.int(-2_000_000_000...400_000_000))
                values["born"] = .value(.date(Timestamp(seconds: born)))
            }
            try realm.create("Author", value: .dictionary(values))
        }
        for n in 0..<books {
            let title = (0..<rng.int(1...4)).map { _ in rng.pick(titleWords) }.joined()
            let authors = (0..<rng.int(1...3)).map { _ in ObjectInput.primaryKey(.int(Int64(rng.int(1...authorCount))))
            }
            let published = Timestamp(
                seconds: base + Int64(rng.int(0...800_000_000)), nanoseconds: Int32(rng.int(0...999) * 1_000_000))
            var values: [String: ObjectInput] = [
                "isbn": .value(.string(String(format: "978-7-%05d-%03d-%d", n / 1000, n % 1000, n % 10))),
                "title": .value(.string(title)),
                "authors": .array(authors),
                "published": .value(.date(published)),
                "pages": .value(.int(Int64(rng.int(40...1200)))),
                "inStock": .value(.bool(rng.int(0...3) > 0)),
                "tags": .array((0..<rng.int(0...3)).map { _ in .value(.string(rng.pick(tagNames))) }),
            ]
            if rng.int(0...4) > 0 { values["price"] = .value(.double(Double(rng.int(500...12_000)) / 100)) }
            if n % 10 == 0 {
                values["cover"] = .value(.data(Data((0..<16).map { _ in UInt8(truncatingIfNeeded: rng.next()) })))
            }
            try realm.create("Book", value: .dictionary(values))
        }
        let reviewCount = books * 2
        if books > 0 {
            for _ in 0..<reviewCount {
                let book = rng.int(0...books - 1)
                let values: [String: ObjectInput] = [
                    "book": .primaryKey(
                        .string(String(format: "978-7-%05d-%03d-%d", book / 1000, book % 1000, book % 10))),
                    "reviewer": .value(.string(rng.pick(surnames) + rng.pick(givenNames))),
                    "rating": .value(.int(Int64(rng.int(1...5)))),
                    "text": .value(.string(rng.pick(reviewTexts))),
                    "created": .value(.date(Timestamp(seconds: base + Int64(rng.int(400_000_000...800_000_000))))),
                ]
                try realm.create("Review", value: .dictionary(values))
            }
        }
        return (authorCount, books, reviewCount)
    }
}
