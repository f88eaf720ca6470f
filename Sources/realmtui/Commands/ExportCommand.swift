import ArgumentParser
import Foundation
import RealmEngine

/// The text formats `export` writes.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case json, csv
}

/// `realmtui export FILE [--class C] [--format json|csv]`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write objects as JSON or CSV to standard output.",
        discussion: """
            JSON without --class is {"Class": [objects…], …} for every class, which 'import' reads \
            back; with --class, an array (import it with --class). CSV (RFC 4180, CRLF line ends) \
            needs --class. Links are written as the target's primary key, or, when its class has \
            none or its primary key is nil, as {"$ref": "Class", "$index": N} (its position in \
            export order), which import resolves. Embedded objects are written nested inside \
            their parent (in CSV, as JSON in the cell), never as a class of their own. Every form imports back unchanged. A link whose \
            target cannot be read (a damaged file) fails the export.
            """
    )

    @Argument(help: "The database file (opened read-only).", completion: .file())
    var file: String

    @OptionGroup var encryption: EncryptionOptions

    @Option(name: .customLong("class"), help: "Export only this class.", completion: .custom(Completion.classNames))
    var className: String?

    @Option(name: .long, help: "json or csv.")
    var format: ExportFormat = .json

    @Flag(name: .long, help: "Accepted for symmetry; export always opens the file read-only.")
    var readOnly = false

    /// `{"Class": [objects…], …}` for `classes`, each array written by `writeArray` (without
    /// its final newline): the document `import` reads back.
    static func writeDocument(_ classes: [ObjectSchema], writeArray: (ObjectSchema) throws -> Void) throws {
        if classes.isEmpty {
            Console.line("{}")
            return
        }
        Console.write("{\n")
        for (index, objectSchema) in classes.enumerated() {
            Console.write(JSONWriter.quoted(objectSchema.name) + ": ")
            try writeArray(objectSchema)
            Console.write(index < classes.count - 1 ? ",\n" : "\n")
        }
        Console.write("}\n")
    }

    func validate() throws {
        if format == .csv && className == nil {
            throw ValidationError("--format csv needs --class CLASS (CSV holds one class)")
        }
    }

    func run() throws {
        try RealmFiles.requireRegularFile(file)
        if format == .json, RealmCoreFiles.isRealmFile(file) {
            // Streamed from the file: a Realm file of any size exports in little memory.
            try RealmCoreFiles.exportJSON(
                file, key: try RealmCoreFiles.requireKey(file, try encryption.encryptionKey()),
                className: className)
            return
        }
        let realm = try RealmFiles.open(file, readOnly: true, encryptionKey: try encryption.encryptionKey())
        if let className {
            try EmbeddedClasses.requireTopLevel(className, in: realm.schema, for: .export)
            let results = try realm.objects(className)
            switch format {
            case .json: try Render.json(results, realm: realm)
            case .csv: try Render.csv(results, realm: realm)
            }
            return
        }
        // Every class, as one import document. Each class's array comes from JSONExport.
        // Embedded objects are written inside their parents, never as a class of their own.
        try Self.writeDocument(realm.schema.objectSchemas.filter { !$0.isEmbedded }) { objectSchema in
            try Render.json(try realm.objects(objectSchema.name), realm: realm, finalNewline: false)
        }
    }
}
