import Foundation
import Testing
@testable import RealmEngine

/// Another process makes random commits; every change set delivered here, applied to the keys
/// this observer last saw, must give exactly the new result.
@Suite(.serialized, .tags(.multiProcess)) struct CrossProcessRandomTests {
    @Test(arguments: [11, 12]) func changeSetsFromAnotherProcessApplyExactly(seed: Int) throws {
        let exe = try #require(BuiltExecutable.url("realm-torture"), "build realm-torture")
        let dir = TempDir()
        let path = dir.path("r.realm")
        // Create the file with the torture schema and some objects first.
        try BuiltExecutable.run("realm-torture", ["random", path, "\(seed + 100)", "20"])
        let realm = try Realm(path: path)
        let results = try realm.objects("Item").filter("batch < 60").sorted(byKeyPath: "batch")
        var seen: [ObjectKey] = []
        var updates = 0
        var mismatches: [String] = []
        let token = results.observe { change in
            switch change {
            case .initial(let r):
                seen = (try? r.keys()) ?? []
            case .update(let r, let deletions, let insertions, let modifications):
                updates += 1
                let now = (try? r.keys()) ?? []
                var applied = seen
                for d in deletions.sorted(by: >) where d < applied.count { applied.remove(at: d) }
                for i in insertions.sorted() where i <= applied.count { applied.insert(now[i], at: i) }
                if applied != now { mismatches.append("update \(updates): \(applied.count) vs \(now.count)") }
                if modifications.contains(where: { $0 >= seen.count }) {
                    mismatches.append("modification index out of range")
                }
                seen = now
            case .error(let e):
                mismatches.append("error \(e)")
            }
        }
        pumpRunLoop { !seen.isEmpty || updates > 0 }
        let writer = Process()
        writer.executableURL = exe
        writer.arguments = ["random", path, "\(seed)", "150"]
        try writer.run()
        pumpRunLoop { !writer.isRunning }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        // Wait for the writer's last commit to be delivered, then compare with a fresh query.
        let last = try Realm(path: path).version
        pumpRunLoop { realm.version >= last }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(updates > 0)
        #expect(seen == (try realm.objects("Item").filter("batch < 60").sorted(byKeyPath: "batch").keys()))
        token.invalidate()
    }
}
