import Foundation

/// Compares two parsed JSON documents value by value (objects as key sets, so the order of
/// a dictionary's keys is not compared), reporting where they differ. A decimal128 object
/// (`{"text", "bid128"}`) is compared by its bits only; numbers compare as numbers, so
/// NaN/infinity (strings in the dump) and -0 compare exactly.
enum CoreJSONCompare {
    static let ignoredTopKeys: Set<String> = ["core_version", "reader", "file"]

    static func parse(_ data: Data) throws -> Any {
        try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    static func differences(_ expected: Any, _ actual: Any, limit: Int = 20) -> [String] {
        var out: [String] = []
        compare(expected, actual, "$", &out, limit, top: true)
        return out
    }

    private static func compare(
        _ e: Any, _ a: Any, _ path: String, _ out: inout [String], _ limit: Int, top: Bool = false
    ) {
        guard out.count < limit else { return }
        switch (e, a) {
        case (let e as [String: Any], let a as [String: Any]):
            if let eb = e["bid128"] as? String, e.count == 2, e["text"] != nil {
                if (a["bid128"] as? String) != eb { out.append("\(path): decimal \(eb) != \(a["bid128"] ?? "nil")") }
                return
            }
            let ek = Set(e.keys).subtracting(top ? ignoredTopKeys : [])
            let ak = Set(a.keys).subtracting(top ? ignoredTopKeys : [])
            if ek != ak {
                out.append(
                    "\(path): keys differ: expected-only \(ek.subtracting(ak).sorted()), actual-only \(ak.subtracting(ek).sorted())"
                )
            }
            for k in ek.intersection(ak).sorted() {
                compare(e[k] as Any, a[k] as Any, path + "." + k, &out, limit)
            }
        case (let e as [Any], let a as [Any]):
            if e.count != a.count { out.append("\(path): \(e.count) elements expected, \(a.count) read") }
            for (i, (x, y)) in zip(e, a).enumerated() { compare(x, y, "\(path)[\(i)]", &out, limit) }
        case (let e as String, let a as String):
            if e != a { out.append("\(path): \"\(e.prefix(80))\" != \"\(a.prefix(80))\"") }
        case (is NSNull, is NSNull):
            return
        case (let e as NSNumber, let a as NSNumber):
            if !e.isEqual(a) { out.append("\(path): \(e) != \(a)") }
        default:
            out.append(
                "\(path): \(type(of: e)) \(String(describing: e).prefix(80)) vs \(type(of: a)) \(String(describing: a).prefix(80))"
            )
        }
    }

    /// The bytes of a `.json` or `.json.gz` file (gzip through /bin/gzip, its stderr kept for errors).
    static func readJSON(_ url: URL) throws -> Data {
        guard url.pathExtension == "gz" else { return try Data(contentsOf: url) }
        return try CoreProcess.run(URL(fileURLWithPath: "/bin/gzip"), ["-dc", url.path]).stdout
    }
}

/// Runs a child process to completion, keeping its output and stderr.
enum CoreProcess {
    struct Result {
        let status: Int32
        let stdout: Data
        let stderr: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func run(_ tool: URL, _ arguments: [String]) throws -> Result {
        let p = Process()
        p.executableURL = tool
        p.arguments = arguments
        // stderr goes to a file (it is small), stdout through a pipe read to its end before
        // waiting, so a large output cannot block the child.
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("core-tool-\(UUID().uuidString).err")
        guard FileManager.default.createFile(atPath: errURL.path, contents: nil) else {
            throw Failure(description: "cannot create \(errURL.path)")
        }
        defer { try? FileManager.default.removeItem(at: errURL) }
        let errHandle = try FileHandle(forWritingTo: errURL)
        defer { try? errHandle.close() }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = errHandle
        try p.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        let result = Result(
            status: p.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
        guard result.status == 0 else {
            throw Failure(
                description:
                    "\(tool.lastPathComponent) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)"
            )
        }
        return result
    }
}
