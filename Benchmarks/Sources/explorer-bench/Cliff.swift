import Foundation
import RealmEngine
import RealmTUI

// `explorer-bench --cliff`: the two sides of the explorer's change-set limit
// (`ExplorerDriver.liveChangeSetLimit`, 1,000,000 objects). A table at or under the limit is
// observed for change sets, one above it is re-read at each version; observing must not cost
// the small side a full evaluation before its first frame (issue 30: at 999,999 objects a sort
// took 734 ms and Enter 17–20 ms, at 1,000,001 4 ms and 0.4 ms).
//
// For each size (files made once, reused): `rounds` fresh explorers (a new Realm instance, so no
// leaf views or keys from an earlier round), each timing Enter → the table's first frame, `s` on
// `name` (a string column) → first page, `s` on `age` (an int column), `S` on `createdAt` (a
// date, descending) → first page; then one commit by another instance → the frame that shows it
// (the refresh that delivers its change set, which on the small side evaluates the sorted result
// at both versions). Reports the median and the range of the rounds.

@MainActor func cliffBenchmark(sizes: [Int], rounds: Int) throws {
    let clock = ContinuousClock()
    for size in sizes {
        let path = NSTemporaryDirectory() + "explorer-bench-\(size).realm"
        if !FileManager.default.fileExists(atPath: path) {
            let took = try clock.measure { try createFile(path, objects: size) }
            print("created \(path) in \(formatted(seconds(took)))")
        }
        let observed = size <= ExplorerDriver.liveChangeSetLimit ? "change sets" : "re-read"
        var samples: [String: [Double]] = [:]
        let steps = ["Enter → first frame of the table", "s on name (string) → first page", "s on age (int) → first page",
                     "S on createdAt (date) → first page", "commit → frame (sorted by createdAt)"]
        for round in 0..<rounds {
            // Later than every earlier run's (the file is reused).
            let stamp = Int(Date().timeIntervalSince1970 * 1000) - 1_700_000_000_000
            let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), createIfMissing: false))
            let session = ExplorerSession(realm: realm, path: path, readOnly: false, environment: [:])
            var driver = try session.makeDriver(width: 120, height: 40, hasColor: true)
            _ = driver.screen
            func timed(_ step: Int, _ keys: [Key], _ driver: inout ExplorerDriver) {
                let start = clock.now
                for key in keys { driver.press(key) }
                _ = driver.screen
                samples[steps[step], default: []].append(seconds(start.duration(to: clock.now)))
            }
            timed(0, [.enter], &driver)
            timed(1, [.character("l"), .character("s")], &driver)
            timed(2, [.character("l"), .character("s")], &driver)
            timed(3, [.character("l"), .character("l"), .character("S")], &driver)
            guard driver.statusText.contains("sorted by createdAt descending") || driver.screen.lines.joined().contains("createdAt") else {
                fail("the table is not sorted by createdAt:\n\(driver.screen.lines.joined(separator: "\n"))")
            }
            // Another instance moves one object to the top of the sort (the newest date); a
            // change, not an insertion, so the file stays on its side of the limit.
            let writer = try Realm(path: path)
            try writer.write {
                guard let object = try writer.object(ofType: "Person", forPrimaryKey: .int(Int64(round))) else {
                    fail("no Person \(round) in \(path)")
                }
                try object.setValue(.string("Cliff \(stamp)"), forKey: "name")
                try object.setValue(.date(Timestamp(seconds: 4_000_000_000 + Int64(stamp))), forKey: "createdAt")
            }
            let stored = try writer.objects("Person").checkedCount()
            let start = clock.now
            driver.refresh()
            _ = driver.screen
            samples[steps[4], default: []].append(seconds(start.duration(to: clock.now)))
            let grouped = stored.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
            guard driver.screen.lines.last?.contains("\(grouped) objects") == true,
                  driver.screen.lines.contains(where: { $0.contains("Cliff \(stamp)") }) else {
                fail("the frame after the commit does not show it (\(grouped) objects, Cliff \(stamp) first):\n"
                     + driver.screen.lines.joined(separator: "\n"))
            }
        }
        print("\(size.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) objects (\(observed)), \(rounds) rounds:")
        for step in steps {
            let values = (samples[step] ?? []).sorted()
            guard let first = values.first, let last = values.last else { continue }
            printRow("  " + step, "median \(formatted(values[values.count / 2])) (\(formatted(first))–\(formatted(last)))")
        }
    }
}

/// One result line (main.swift's `report` keeps a list that these modes run before).
func printRow(_ name: String, _ value: String) {
    print(name.padding(toLength: 44, withPad: " ", startingAt: 0) + " " + value)
}
