// realm-torture: a writer process for the engine's multi-process and crash tests.
//
//   realm-torture increment PATH N        N transactions, each adding 1 to Counter(id: 0)
//   realm-torture batches PATH WRITER N K  N transactions of K Items each; prints "ack W B" after each commit
//   realm-torture random PATH SEED N       N transactions of random inserts, deletes and updates of Items
//   realm-torture resources PATH N         N open/close cycles; prints descriptors, mappings and
//                                          threads before and after (see `runResourceCycles`)
//   realm-torture counter PATH LOG T N     T threads, each with its own Realm, N transactions in all,
//                                          each adding 1 to Counter(id: 0) (see `runCounter`)
//   realm-torture reopen PATH WRITER N     N times: open the file, add one Item, close it; prints
//                                          "ack W I" after each commit (as `import` does, one a process)
//   realm-torture compact PATH N           N compactions in place (N <= 0: until PATH.stop exists);
//                                          prints "compacted C busy B" at the end
//
// It creates the file if needed (the schema below). Exit code 1 with one `error:` line on failure.
// With REALM_TORTURE_KEY set (128 hex digits) the file is opened (or made) encrypted.
import Foundation
import RealmEngine

let schema = Schema([
    ObjectSchema(
        name: "Counter",
        properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "value", type: .int),
        ]),
    ObjectSchema(
        name: "Item",
        properties: [
            Property(name: "id", type: .string, isPrimaryKey: true),
            Property(name: "writer", type: .int),
            Property(name: "batch", type: .int, isIndexed: true),
            Property(name: "payload", type: .string),
            Property(name: "next", type: .object, objectClassName: "Item"),
        ]),
])

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

let args = CommandLine.arguments
guard args.count >= 4, let n = Int(args[args.count - (args[1] == "batches" ? 2 : 1)]) else {
    fail(
        "usage: realm-torture increment PATH N | batches PATH WRITER N K | random PATH SEED N | counter PATH LOG T N | resources PATH N | reopen PATH WRITER N | compact PATH N"
    )
}
if args[1] == "reopen" {
    guard args.count == 5, let writer = Int(args[3]) else { fail("bad arguments") }
    runReopeningWriter(path: args[2], schema: schema, writer: writer, count: n)
    exit(0)
}
if args[1] == "compact" {
    runCompactions(path: args[2], count: n)
    exit(0)
}
if args[1] == "resources" {
    runResourceCycles(path: args[2], schema: schema, cycles: n)
    exit(0)
}
if args[1] == "counter" {
    guard args.count == 6, let threads = Int(args[4]), threads > 0 else { fail("bad arguments") }
    runCounter(path: args[2], schema: schema, log: args[3], threads: threads, total: n)
    exit(0)
}

do {
    var key: Data?
    if let hex = ProcessInfo.processInfo.environment["REALM_TORTURE_KEY"] {
        let digits = Array(hex.utf8)
        key = Data(
            stride(from: 0, to: digits.count - 1, by: 2).compactMap {
                UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)
            })
    }
    let realm = try Realm(
        configuration: .init(fileURL: URL(fileURLWithPath: args[2]), schema: schema, encryptionKey: key))
    switch args[1] {
    case "increment":
        for _ in 0..<n {
            try incrementCounter(in: realm)
        }
    case "batches":
        guard args.count == 6, let writer = Int(args[3]), let k = Int(args[5]) else { fail("bad arguments") }
        var batch = 0
        while n <= 0 || batch < n {
            try realm.write {
                var previous: DynamicObject?
                for i in 0..<k {
                    let item = try realm.create(
                        "Item",
                        value: .dictionary([
                            "id": .value(.string("\(writer)-\(batch)-\(i)")), "writer": .value(.int(Int64(writer))),
                            "batch": .value(.int(Int64(batch))),
                            "payload": .value(.string(String(repeating: "数据", count: i % 40))),
                        ]))
                    if let previous { try previous.setValue(.link(item.key), forKey: "next") }
                    previous = item
                }
            }
            FileHandle.standardOutput.write(Data("ack \(writer) \(batch)\n".utf8))
            batch += 1
        }
    case "random":
        guard args.count == 5, let seed = UInt64(args[3]) else { fail("bad arguments") }
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var serial = 0
        for _ in 0..<n {
            try realm.write {
                for _ in 0..<(1 + next(4)) {
                    let items = try realm.objects("Item")
                    switch next(3) {
                    case 0:
                        serial += 1
                        try realm.create(
                            "Item",
                            [
                                "id": .string("r\(seed)-\(serial)"), "writer": .int(0),
                                "batch": .int(Int64(next(100))), "payload": .string("x"),
                            ])
                    case 1 where items.count > 0:
                        try realm.delete(try items.object(at: next(items.count)))
                    default:
                        if items.count > 0 {
                            try items.object(at: next(items.count)).setValue(.int(Int64(next(100))), forKey: "batch")
                        }
                    }
                }
            }
        }
    default:
        fail("unknown command \(args[1])")
    }
} catch {
    fail("\(error)")
}
