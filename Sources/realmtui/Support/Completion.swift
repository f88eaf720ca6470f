import Foundation
import RealmEngine

/// Shell completion beyond file names: the class names of the database file already typed.
enum Completion {
    /// The classes of the first existing file among the words typed so far (the database file
    /// comes before the class in every command), or nothing when there is none yet.
    @Sendable static func classNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        for word in words.dropFirst() where !word.hasPrefix("-") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: word, isDirectory: &isDirectory), !isDirectory.boolValue,
                let realm = try? RealmFiles.open(word, readOnly: true)
            else { continue }
            return realm.schema.classNames.filter { $0.hasPrefix(prefix) }
        }
        return []
    }
}
