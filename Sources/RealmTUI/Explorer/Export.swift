import Foundation
import RealmEngine

extension ExplorerState {
    /// `:export json|csv PATH`: writes the current table's objects (query and sort applied) with
    /// the command line's exporters. The text goes to a new file beside PATH that replaces it
    /// only once complete: a failure is a message, and a file already at PATH is kept as it was.
    /// A file already at PATH is replaced only with `overwrite`; without it, the explorer asks
    /// (`y` exports again with `overwrite`).
    mutating func exportCurrentTable(format: ExportFormat, path: String, overwrite: Bool = false) {
        guard case .table(let table) = current else { return }
        let expanded = (path as NSString).expandingTildeInPath
        if !overwrite && FileManager.default.fileExists(atPath: expanded) {
            mode = .edit(
                .confirming(
                    Confirmation(
                        question: "\(path) exists: replace it? (y/n)",
                        effects: [.export(format: format, path: path, overwrite: true)])))
            return
        }
        let url = URL(fileURLWithPath: expanded + ".realmtui-export-\(UUID().uuidString)")
        do {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw RealmError.io(
                    path: expanded, operation: "create", errno: errno, message: String(cString: strerror(errno)))
            }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            var rows = 0
            var failure: Error?
            let keys = try table.rows.results.keys()
            let realm = self.realm
            let values = keys.lazy.compactMap { key -> [Value]? in
                guard failure == nil else { return nil }
                do {
                    guard let object = try realm.object(ofType: table.schema.name, key: key) else { return nil }
                    rows += 1
                    return try object.values()
                } catch {
                    failure = error
                    return nil
                }
            }
            let resolver = realm.exportLinkResolver(output: keys, of: table.schema.name)
            var writeError: Error?
            let sink: (String) -> Void = { text in
                guard writeError == nil else { return }
                do { try handle.write(contentsOf: Data(text.utf8)) } catch { writeError = error }
            }
            switch format {
            case .json: try JSONExport.write(values, schema: table.schema, resolveLink: resolver, to: sink)
            case .csv: try CSVExport.write(values, schema: table.schema, resolveLink: resolver, to: sink)
            }
            if let error = failure ?? writeError { throw error }
            try handle.synchronize()
            guard rename(url.path, expanded) == 0 else {
                throw RealmError.io(
                    path: expanded, operation: "rename", errno: errno, message: String(cString: strerror(errno)))
            }
            message = Message(text: "exported \(ValueFormatter.grouped(rows)) objects to \(path)", isError: false)
        } catch {
            try? FileManager.default.removeItem(at: url)
            message = Message(text: "export failed: \(ExplorerText.describe(error))", isError: true)
        }
    }
}
