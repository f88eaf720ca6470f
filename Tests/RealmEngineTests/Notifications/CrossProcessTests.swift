import Foundation
import Testing
@testable import RealmEngine

/// Notifications across processes, through `realm-notify-probe` (built with the tests).
@Suite(.serialized, .tags(.multiProcess)) struct CrossProcessTests {
    static let tickSchema = Schema([
        ObjectSchema(
            name: "Tick",
            properties: [
                Property(name: "n", type: .int, isIndexed: true),
                Property(name: "t", type: .int),
            ])
    ])

    static var probe: URL {
        BuiltExecutable.url("realm-notify-probe") ?? URL(fileURLWithPath: "/nonexistent/realm-notify-probe")
    }

    func run(_ arguments: [String]) throws -> Process {
        let p = Process()
        p.executableURL = Self.probe
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        return p
    }

    @Test func commitsOfAnotherProcessAreDelivered() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.probe.path), "build realm-notify-probe")
        let dir = TempDir()
        let path = dir.path("x.realm")
        let realm = try Realm(path: path, schema: Self.tickSchema)
        var count = 0
        var updates = 0
        let token = try realm.objects("Tick").filter("n >= 0").observe { change in
            if case .update(let r, _, _, _) = change {
                count = r.count
                updates += 1
            }
        }
        pumpRunLoop { realm.notificationHub != nil }
        let writer = try run(["write", path, "20", "5"])
        // Until the last commit is delivered, or the writer ends without making it (a failed
        // writer must not leave the wait hanging).
        pumpRunLoop { count == 20 || !writer.isRunning }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        if writer.terminationStatus == 0 { pumpRunLoop { count == 20 } }
        #expect(count == 20)
        #expect(updates >= 1 && updates <= 20)
        token.invalidate()
    }

    @Test func aWriterKilledMidTransactionIsNeverSeen() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.probe.path), "build realm-notify-probe")
        let dir = TempDir()
        let path = dir.path("k.realm")
        let realm = try Realm(path: path, schema: Self.tickSchema)
        var events: [String] = []
        let t1 = realm.observe { _, r in events.append("realm v\(r.version)") }
        let t2 = try realm.objects("Tick").observe { change in
            switch change {
            case .initial(let r): events.append("initial \(r.count)")
            case .update(let r, let d, let i, let m): events.append("update \(r.count) \(d) \(i) \(m)")
            case .error(let e): events.append("error \(e)")
            }
        }
        pumpRunLoop { events == ["initial 0"] }
        let crasher = try run(["crash", path])
        crasher.waitUntilExit()
        #expect(crasher.terminationReason == .uncaughtSignal)
        runRunLoop(for: 0.3)
        realm.refresh()
        #expect(events == ["initial 0"])
        // The write lock died with the process: the next writer proceeds, and only its change shows.
        try realm.write { try realm.create("Tick", ["n": .int(1), "t": .int(0)]) }
        pumpRunLoop { events.count >= 3 }
        #expect(
            events == ["initial 0", "realm v2", "update 1 [] [0] []"]
                || events == ["initial 0", "update 1 [] [0] []", "realm v2"])
        t1.invalidate()
        t2.invalidate()
    }
}
