import Foundation
import RealmEngine

/// Embedded tables (table type 1 in the table top): their objects are written like any
/// other, with the backlink columns of the links that own them. Realm Core assumes each one
/// has exactly one parent (deleting the parent deletes it; `verify` asserts it), so a file
/// where one has none or several is refused before it is written.
extension RealmCoreWriter {
    static func checkEmbeddedParents(_ writers: [CoreTableWriter], name: String) throws {
        for writer in writers where writer.table.isEmbedded {
            for object in writer.table.objects {
                let parents = writer.backlinks.reduce(0) { $0 + ($1.origins[object.key]?.count ?? 0) }
                guard parents == 1 else {
                    throw RealmError.invalidInput(
                        "\(name): embedded object \(object.key) of \(writer.table.name) has \(parents) parents; an embedded object has exactly one"
                    )
                }
            }
        }
    }
}
