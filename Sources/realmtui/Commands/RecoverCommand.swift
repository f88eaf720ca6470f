import ArgumentParser
import Foundation
import RealmEngine

/// `realmtui recover BROKEN OUT`: salvages a damaged file (sqlite3's `.recover`).
struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Copy every object that can still be read from a damaged file into a new one (OUT must not exist).",
        discussion: """
            Reads BROKEN read-only, leaf by leaf, verifying every node: objects in a damaged or \
            missing part are lost, links to them are dropped, everything else keeps its key. \
            Prints what was recovered and, per class, how many objects were lost and which keys; \
            a 'warning:' line on stderr says when anything was lost. Exit 0 when OUT was written.
            """
    )

    @Argument(help: "The damaged database file (opened read-only, never changed).")
    var source: String

    @Argument(help: "The new file.")
    var destination: String

    @OptionGroup var encryption: EncryptionOptions

    func run() throws {
        try RealmFiles.requireRegularFile(source)
        if FileManager.default.fileExists(atPath: destination) {
            throw CLIFailure("\(destination) already exists; recover writes a new file")
        }
        let report = try Realm.recover(from: source, to: destination, encryptionKey: try encryption.encryptionKey())
        let saved = report.recovered.values.reduce(0, +)
        let lostObjects = report.lost.reduce(0) { $0 + ($1.objects ?? 0) }
        Console.line("recovered \(objectCount(saved)) from \(source) (version \(report.version)) into \(destination)")
        for name in report.recovered.keys.sorted() {
            let losses = report.lost.filter { $0.className == name }
            let lost = losses.reduce(0) { $0 + ($1.objects ?? 0) }
            Console.line(
                "  \(name): \(report.recovered[name] ?? 0) recovered" + (losses.isEmpty ? "" : ", \(lost) lost"))
            for loss in losses {
                let keys =
                    loss.firstKey == .min && loss.endKey == nil
                    ? "every key"
                    : "keys \(loss.firstKey == .min ? "start" : String(loss.firstKey))..<"
                        + (loss.endKey.map(String.init) ?? "end")
                let count = loss.objects.map(objectCount) ?? "an unknown number of objects"
                Console.line("    lost \(count), \(keys): \(loss.reason)")
            }
        }
        for skipped in report.unreadableVersions {
            Console.line("lost version \(skipped.version) (newer, unreadable: \(skipped.reason))")
        }
        if report.droppedLinks > 0 { Console.line("dropped \(report.droppedLinks) links to lost objects") }
        if !report.isComplete {
            let versions =
                report.unreadableVersions.isEmpty
                ? "" : " and the changes of \(report.unreadableVersions.count) newer version(s)"
            Console.error("warning: \(objectCount(lostObjects))\(versions) could not be recovered (listed above)")
        }
    }
}
