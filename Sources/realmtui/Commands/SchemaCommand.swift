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
        try RealmFiles.requireRegularFile(file)
        if RealmCoreFiles.isRealmFile(file) {
            // Read from the specs alone: no object is read, so a file of any size answers at once.
            let key = try RealmCoreFiles.requireKey(file, try encryption.encryptionKey())
            let (schema, counts) = try RealmCoreFiles.describe(file, key: key)
            guard let realmFile = RealmCoreFiles.lastOpened else {
                throw RealmError.internalError("no facts of \(file)")
            }
            try render(schema: schema, counts: counts, realm: nil, realmFile: realmFile)
            return
        }
        let realm = try RealmFiles.open(file, readOnly: true, encryptionKey: try encryption.encryptionKey())
        // Counted from the file, embedded classes too (which `objects(_:)` refuses to list).
        let counts = try realm.schema.objectSchemas.map { try realm.storedObjectCount($0.name) }
        try render(schema: realm.schema, counts: counts, realm: realm, realmFile: nil)
    }

    /// The description of a realmtui file (`realm`) or of a Realm file (`realmFile`).
    private func render(schema: Schema, counts: [Int], realm: Realm?, realmFile: RealmCoreFiles.Facts?) throws {
        let size = RealmFiles.fileSize(file)
        let formats = realm?.fileFormat
        let path = realm?.path ?? file
        let version = realm.map { Int64($0.version) } ?? realmFile?.version ?? 0
        let schemaVersion = realm.map { Int64($0.schemaVersion) } ?? realmFile?.schemaVersion ?? 0
        if json {
            var members = [
                JSONMember("path", .string(path)),
                JSONMember("fileSize", .integer(Int64(size))),
                JSONMember("version", .integer(version)),
                JSONMember("schemaVersion", .integer(schemaVersion)),
            ]
            if let formats {
                members.append(JSONMember("readFormat", .integer(Int64(formats.read))))
                members.append(JSONMember("writeFormat", .integer(Int64(formats.write))))
            }
            if let realmFile {
                members.append(JSONMember("realmCoreFormat", .integer(Int64(realmFile.formatVersion))))
                members.append(JSONMember("notShown", .array(realmFile.omissions.map { .string($0) })))
                members.append(JSONMember("access", .string(realmFile.accessNote)))
            }
            members.append(
                JSONMember(
                    "counts",
                    .object(zip(schema.objectSchemas, counts).map { JSONMember($0.name, .integer(Int64($1))) })))
            members.append(JSONMember("schema", try schema.realmJSValue()))
            Console.rawLine(JSONValue.object(members).jsonText(pretty: true))
            return
        }
        var header = "\(path): \(size) bytes, version \(version), schema version \(schemaVersion)"
        if let formats { header += ", format \(formats.read) (read) / \(formats.write) (write)" }
        if let realmFile {
            header =
                "\(file): \(size) bytes, a Realm file (format \(realmFile.formatVersion)), version \(realmFile.version)"
                + (realmFile.schemaVersion.map { ", schema version \($0)" } ?? "") + "; " + realmFile.accessNote
        }
        Console.line(header)
        // A line of its own: `Console.line` shows a newline inside a line as a visible ␊.
        if let realmFile { Console.line(realmFile.summary) }
        for (objectSchema, count) in zip(schema.objectSchemas, counts) {
            Console.line("")
            var title = "\(objectSchema.name) (\(objectCount(count)))"
            if let pk = objectSchema.primaryKeyProperty { title += ", primary key \(pk.name)" }
            if objectSchema.isEmbedded {
                let places = schema.embeddingProperties(of: objectSchema.name)
                title += places.isEmpty ? ", embedded" : ", embedded in " + places.joined(separator: ", ")
            }
            Console.line(title)
            let rows = objectSchema.properties.map { p in ["  " + p.name, p.typeDescription, attributes(p)] }
            for line in TableFormatter(headerRule: nil).format(
                header: nil, rows: rows, maxWidth: Console.width,
                alignments: [.left, .left, .left])
            {
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
