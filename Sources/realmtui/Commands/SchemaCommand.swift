import ArgumentParser
import Foundation
import RealmEngine
import RealmTUI

/// `realmtui schema FILE [--json]`.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Describe a file: classes, properties, keys, indexes, counts, sizes and versions.",
        discussion: """
            --json prints {"path", "fileSize", "version", "schemaVersion", "readFormat", \
            "writeFormat", "counts": {"Class": n}, "schema": [realm-js schema]}; the "schema" \
            array is what 'create --schema' reads.
            """
    )

    @Argument(help: "The database file (opened read-only).", completion: .file())
    var file: String

    @OptionGroup var encryption: EncryptionOptions

    @Flag(name: .long, help: "Print JSON instead of text.")
    var json = false

    @Flag(name: .long, help: "Accepted for symmetry; schema always opens the file read-only.")
    var readOnly = false

    func run() throws {
        let realm = try RealmFiles.open(file, readOnly: true, encryptionKey: try encryption.encryptionKey())
        let schema = realm.schema
        var counts: [(String, Int)] = []
        for c in schema.objectSchemas { counts.append((c.name, try realm.objects(c.name).checkedCount())) }
        let size = RealmFiles.fileSize(file)
        let realmFile = RealmCoreFiles.lastOpened
        let formats: (read: UInt16, write: UInt16)? = realmFile == nil ? realm.fileFormat : nil
        if json {
            var members = [
                JSONMember("path", .string(realmFile == nil ? realm.path : file)),
                JSONMember("fileSize", .integer(Int64(size))),
                JSONMember("version", .integer(Int64(realm.version))),
                JSONMember("schemaVersion", .integer(Int64(realm.schemaVersion))),
            ]
            if let formats {
                members.append(JSONMember("readFormat", .integer(Int64(formats.read))))
                members.append(JSONMember("writeFormat", .integer(Int64(formats.write))))
            }
            if let realmFile {
                members.append(JSONMember("realmCoreFormat", .integer(Int64(realmFile.formatVersion))))
                members.append(JSONMember("notShown", .array(realmFile.omissions.map { .string($0) })))
            }
            members.append(JSONMember("counts", .object(counts.map { JSONMember($0.0, .integer(Int64($0.1))) })))
            members.append(JSONMember("schema", try schema.realmJSValue()))
            Console.rawLine(JSONValue.object(members).jsonText(pretty: true))
            return
        }
        var header = "\(realm.path): \(size) bytes, version \(realm.version), schema version \(realm.schemaVersion)"
        if let formats { header += ", format \(formats.read) (read) / \(formats.write) (write)" }
        if let realmFile {
            header = "\(file): \(size) bytes, a Realm file (format \(realmFile.formatVersion)), version \(realmFile.version)"
                + (realmFile.schemaVersion.map { ", schema version \($0)" } ?? "") + "; read-only"
        }
        Console.line(header)
        // A line of its own: `Console.line` shows a newline inside a line as a visible ␊.
        if let realmFile { Console.line(realmFile.summary) }
        for (objectSchema, count) in zip(schema.objectSchemas, counts.map(\.1)) {
            Console.line("")
            var title = "\(objectSchema.name) (\(objectCount(count)))"
            if let pk = objectSchema.primaryKeyProperty { title += ", primary key \(pk.name)" }
            Console.line(title)
            let rows = objectSchema.properties.map { p in ["  " + p.name, p.typeDescription, attributes(p)] }
            for line in TableFormatter(headerRule: nil).format(header: nil, rows: rows, maxWidth: Console.width,
                                                                alignments: [.left, .left, .left]) {
                Console.line(line)
            }
        }
        if let realmFile, !realmFile.omissions.isEmpty {
            Console.line("")
            Console.line("Not shown (this version of realmtui cannot hold them yet):")
            for omission in realmFile.omissions { Console.line("  " + omission) }
        }
    }

    private func attributes(_ p: Property) -> String {
        var out: [String] = []
        if p.isPrimaryKey { out.append("primary key") }
        if p.isIndexed { out.append("indexed") }
        if let o = p.linkOriginPropertyName, let c = p.objectClassName { out.append("backlinks of \(c).\(o)") }
        if let d = p.defaultValue { out.append("default \(d)") }
        return out.joined(separator: ", ")
    }
}
