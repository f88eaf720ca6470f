import ArgumentParser
import Foundation
import RealmEngine
#if canImport(Glibc)
    import Glibc
#endif

/// `--key HEX` / `--key-file PATH`: the 64-byte key of an encrypted file, for every command
/// that opens one.
struct EncryptionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The file's encryption key: 64 bytes as 128 hex digits.", valueName: "HEX"))
    var key: String?

    @Option(
        name: .customLong("key-file"),
        help: ArgumentHelp(
            "A file holding the encryption key (64 bytes, or 128 hex digits).",
            valueName: "PATH"),
        completion: .file())
    var keyFile: String?

    func validate() throws {
        if key != nil && keyFile != nil { throw ValidationError("give --key or --key-file, not both") }
        if let key { _ = try EncryptionOptions.parse(hex: key, what: "--key") }
    }

    /// The key given, or nil when neither option was.
    func encryptionKey() throws -> Data? {
        if let key { return try EncryptionOptions.parse(hex: key, what: "--key") }
        guard let keyFile else { return nil }
        let contents = try EncryptionOptions.read(keyFile: keyFile)
        if contents.count == 64 { return contents }
        return try EncryptionOptions.parse(
            hex: String(decoding: contents, as: UTF8.self), what: "--key-file \(keyFile)")
    }

    /// The bytes of a key file, read with `read(2)` to the end: it may be a pipe (the shell's
    /// `<(…)`, /dev/stdin) or a FIFO, which have no size to read up to. At most 64 KiB: a key
    /// is 64 bytes or 128 hex digits.
    static func read(keyFile path: String) throws -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIFailure("--key-file \(path): cannot open it: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let limit = 1 << 16
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw CLIFailure("--key-file \(path): cannot read it: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return data }
            data.append(contentsOf: buffer[0..<n])
            if data.count > limit {
                throw CLIFailure("--key-file \(path): more than \(limit) bytes; a key is 64 bytes or 128 hex digits")
            }
        }
    }

    /// 128 hex digits (spaces, newlines and a leading "0x" allowed) as 64 bytes.
    static func parse(hex text: String, what: String) throws -> Data {
        var digits = text.filter { !$0.isWhitespace }
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits.removeFirst(2) }
        var bytes = [UInt8]()
        var chars = Array(digits.utf8)[...]
        while chars.count >= 2, let byte = UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16) {
            bytes.append(byte)
            chars = chars.dropFirst(2)
        }
        guard chars.isEmpty, bytes.count == 64 else {
            throw ValidationError(
                "\(what) takes a 64-byte key as 128 hex digits"
                    + (chars.isEmpty
                        ? ", got \(bytes.count * 2)"
                        : ", and '\(String(decoding: chars.prefix(8), as: UTF8.self))' is not hex"))
        }
        return Data(bytes)
    }

    /// The `error:` text for a file that needs a key, naming these options.
    static func missingKeyMessage(_ path: String) -> String {
        "\(path): the file is encrypted: give its key with --key HEX or --key-file PATH"
    }
}
