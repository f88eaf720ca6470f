import Foundation
import RealmEngine

/// The file target: writes the input as a database file, opens it read-only and reads everything
/// (schema, every object, a query), then runs `Realm.check(path:)`.
///
/// The first byte picks the mode. Even: the rest of the input is the whole file. Odd: the rest
/// is a mutation script applied to one of `originals` (`byte` picks the original, then groups of
/// five bytes: an operation and a 32-bit offset): when `check` accepts the mutated file, it must
/// read exactly as its original does, or the run reports an undetected corruption.
public final class FileFuzzer {
    private let directory: URL
    private let originals: [Data]
    private let originalReads: [String]
    private var counter = 0

    /// A target over `originals` (valid database files), writing its files in a new folder under
    /// `scratchFolder`.
    public init(originals: [Data]) throws {
        directory = Self.scratchFolder
            .appendingPathComponent("realm-fuzz-file-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.originals = originals
        var reads: [String] = []
        var counter = 0
        for original in originals {
            counter += 1
            let path = directory.appendingPathComponent("original-\(counter).realm").path
            try original.write(to: URL(fileURLWithPath: path))
            reads.append(try readEverything(path: path))
            _ = try Realm.check(path: path)
            Self.removeFiles(path)
        }
        originalReads = reads
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs one input; throws a `FuzzFinding` for an undetected corruption, nothing else.
    public func run(_ data: Data) throws {
        guard let mode = data.first else { return }
        let body = data.dropFirst()
        counter += 1
        let path = directory.appendingPathComponent("input-\(counter).realm").path
        defer { Self.removeFiles(path) }
        if mode & 1 == 0 || originals.isEmpty {
            try Data(body).write(to: URL(fileURLWithPath: path))
            // Only whether reading fails matters here, so the values are read but not described.
            var noText: String?
            let read = Result { try readEverything(path: path, into: &noText) }
            let checked = Result { try Realm.check(path: path) }
            if case .success = checked, case .failure(let error) = read {
                throw FuzzFinding("check accepts the file but reading it fails: \(error)")
            }
            return
        }
        guard let choice = body.first else { return }
        let index = Int(choice) % originals.count
        let mutated = Self.mutate(originals[index], script: body.dropFirst())
        if mutated == originals[index] { return }
        try mutated.write(to: URL(fileURLWithPath: path))
        // Checked first so that the text to compare with the original (a sixth of the time when
        // made for every input) is made only when `check` accepts the file; a rejected file is
        // still read in full. The two opens are independent: each is read-only and closed after.
        let accepted = (try? Realm.check(path: path)) != nil
        var text: String? = accepted ? "" : nil
        let read = Result { try readEverything(path: path, into: &text) }
        guard accepted else { return }
        switch read.map({ text ?? "" }) {
        case .failure(let error):
            throw FuzzFinding("check accepts a mutation of original \(index) but reading it fails: \(error)")
        case .success(let text) where text != originalReads[index]:
            throw FuzzFinding(
                "check accepts a mutation of original \(index) that reads differently:\n\(text)\n--- original:\n\(originalReads[index])"
            )
        case .success:
            return
        }
    }

    /// The file `run` writes for a mutation-mode input (odd first byte), or nil for a whole-file
    /// input or a script that changes nothing. Replay tests use it to assert what opening such a
    /// file reports.
    public func mutatedFile(_ data: Data) -> Data? {
        guard let mode = data.first, mode & 1 == 1, !originals.isEmpty, let choice = data.dropFirst().first else {
            return nil
        }
        let original = originals[Int(choice) % originals.count]
        let mutated = Self.mutate(original, script: data.dropFirst(2))
        return mutated == original ? nil : mutated
    }

    /// Applies the mutation script to `original`: per five bytes, an operation (flip a bit, set a
    /// byte, zero a 512-byte sector, truncate) and a little-endian offset, taken modulo the size.
    static func mutate(_ original: Data, script: Data) -> Data {
        var bytes = [UInt8](original)
        let ops = [UInt8](script)
        var i = 0
        while i + 5 <= ops.count, !bytes.isEmpty {
            let op = ops[i]
            let raw = UInt32(ops[i + 1]) | UInt32(ops[i + 2]) << 8 | UInt32(ops[i + 3]) << 16 | UInt32(ops[i + 4]) << 24
            let offset = Int(raw % UInt32(bytes.count))
            switch op % 4 {
            case 0: bytes[offset] ^= 1 << (op >> 5)
            case 1: bytes[offset] = op
            case 2:
                let start = offset & ~511
                for j in start..<min(start + 512, bytes.count) { bytes[j] = 0 }
            default: bytes.removeSubrange(offset...)
            }
            i += 5
        }
        return Data(bytes)
    }

    /// Where the files go: `/dev/shm` (memory) when it exists, else the temporary folder. The
    /// engine reads a file the same way from either; on disk each input cost journal updates and
    /// an `fsync` for creating, locking and deleting its files.
    static var scratchFolder: URL {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder), isFolder.boolValue,
            access("/dev/shm", W_OK) == 0
        {
            return URL(fileURLWithPath: "/dev/shm")
        }
        return FileManager.default.temporaryDirectory
    }

    private static func removeFiles(_ path: String) {
        for suffix in ["", ".lock", ".note", ".management"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}
