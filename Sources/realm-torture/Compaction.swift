import Foundation
import RealmEngine

/// `reopen`: a writer that opens the file for each commit and closes it after, as `realmtui
/// import` run once per object does: every commit meets a fresh open, the moment a concurrent
/// compaction can replace the file. Prints "ack W I" once commit I is acknowledged.
func runReopeningWriter(path: String, schema: Schema, writer: Int, count: Int) {
    var index = 0
    while index < count {
        do {
            // Scoped, so the instance closes the file before the next open.
            do {
                let realm = try Realm(configuration: .init(fileURL: URL(fileURLWithPath: path), schema: schema))
                try realm.write {
                    try realm.create(
                        "Item",
                        [
                            "id": .string("\(writer)-\(index)"), "writer": .int(Int64(writer)),
                            "batch": .int(Int64(index)), "payload": .string("reopen"),
                        ])
                }
            }
            FileHandle.standardOutput.write(Data("ack \(writer) \(index)\n".utf8))
            index += 1
        } catch RealmError.busy {
            // A compaction had the file to itself: nothing was written; write the same item again.
            continue
        } catch {
            fail("\(error)")
        }
    }
}

/// `compact`: compacts in place `count` times (until `PATH.stop` exists when `count` <= 0);
/// a compaction refused because another process has the file open counts as busy.
func runCompactions(path: String, count: Int) {
    var compacted = 0
    var busy = 0
    var attempt = 0
    while count > 0 ? attempt < count : !FileManager.default.fileExists(atPath: path + ".stop") {
        attempt += 1
        do {
            try Realm.compact(path: path)
            compacted += 1
        } catch RealmError.busy {
            busy += 1
        } catch {
            fail("\(error)")
        }
    }
    print("compacted \(compacted) busy \(busy)")
}
