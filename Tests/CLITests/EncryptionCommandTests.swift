import Foundation
import Testing

/// `--key HEX` / `--key-file PATH` on every command that opens a file; `copy --new-key`,
/// `--decrypt`; one clear error for an encrypted file opened without its key.
@Suite("Encrypted files on the command line", .tags(.multiProcess))
struct EncryptionCommandTests {
    static let key = String(repeating: "0123456789abcdef", count: 8)
    static let otherKey = String(repeating: "fedcba9876543210", count: 8)

    /// An encrypted database with the test schema and data.
    static func encryptedDatabase(_ s: Scratch) throws -> String {
        let schema = try s.write("schema.json", Scratch.schemaJSON)
        let file = s.path("secret.realm")
        let created = try CLI.run(["create", file, "--schema", schema, "--key", key])
        try #require(created.status == 0, "\(created.stderr)")
        let imported = try CLI.run(["import", file, "-", "--key", key], stdin: Scratch.dataJSON)
        try #require(imported.status == 0, "\(imported.stderr)")
        return file
    }

    @Test func everyReadingAndWritingCommandTakesTheKey() throws {
        let s = try Scratch()
        let file = try Self.encryptedDatabase(s)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)).range(of: Data("张三".utf8)) == nil)
        let keyFile = try s.write("key.hex", Self.key + "\n")
        for keyArgs in [["--key", Self.key], ["--key-file", keyFile]] {
            let query = try CLI.run(["query", file, "Person", "name == '张三'"] + keyArgs)
            #expect(query.status == 0 && query.stdout.contains("张三"), "\(query.stderr)")
            let schema = try CLI.run(["schema", file] + keyArgs)
            #expect(schema.status == 0 && schema.stdout.contains("Dog"), "\(schema.stderr)")
            let export = try CLI.run(["export", file, "--class", "Dog"] + keyArgs)
            #expect(export.status == 0 && export.stdout.contains("大黄"), "\(export.stderr)")
            let check = try CLI.run(["check", file] + keyArgs)
            #expect(check.status == 0 && check.stdout.hasPrefix("ok: "), "\(check.stderr)")
        }
        let update = try CLI.run(["update", file, "Person", "id == 2", "--set", "age=41", "--key", Self.key])
        #expect(update.status == 0, "\(update.stderr)")
        let compact = try CLI.run(["compact", file, "--key-file", keyFile])
        #expect(compact.status == 0, "\(compact.stderr)")
        let after = try CLI.run(["query", file, "Person", "age == 41", "--key", Self.key])
        #expect(after.stdout.contains("李四"), "\(after.stdout) \(after.stderr)")
        // A raw 64-byte key file works too.
        let raw = s.path("key.bin")
        try Data((0..<64).map { i in UInt8(Int(Self.key.dropFirst(2 * i).prefix(2), radix: 16) ?? 0) }).write(
            to: URL(fileURLWithPath: raw))
        #expect(try CLI.run(["check", file, "--key-file", raw]).status == 0)
    }

    @Test func anEncryptedFileWithoutItsKeyIsOneErrorLineNamingTheOptions() throws {
        let s = try Scratch()
        let file = try Self.encryptedDatabase(s)
        for args in [
            ["query", file, "Person"], ["schema", file], ["check", file], ["export", file, "--class", "Dog"],
            ["compact", file],
        ] {
            let r = try CLI.run(args)
            expectFailure(
                r, status: 1, contains: "the file is encrypted: give its key with --key HEX or --key-file PATH")
        }
        let wrong = try CLI.run(["schema", file, "--key", Self.otherKey])
        expectFailure(wrong, status: 1, contains: "wrong encryption key")
        let short = try CLI.run(["schema", file, "--key", "abcd"])
        expectFailure(short, status: 64, contains: "--key takes a 64-byte key as 128 hex digits, got 4")
        let notHex = try CLI.run(["schema", file, "--key", String(repeating: "zz", count: 64)])
        expectFailure(notHex, status: 64, contains: "is not hex")
        let plain = try s.database()
        expectFailure(
            try CLI.run(["schema", plain, "--key", Self.key]), status: 1, contains: "the file is not encrypted")
    }

    @Test func copyEncryptsDecryptsAndRekeys() throws {
        let s = try Scratch()
        let file = try Self.encryptedDatabase(s)
        let plain = s.path("plain.realm")
        let rekeyed = s.path("rekeyed.realm")
        let again = s.path("again.realm")
        let decrypt = try CLI.run(["copy", file, plain, "--key", Self.key, "--decrypt"])
        #expect(decrypt.status == 0, "\(decrypt.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: plain)).range(of: Data("张三".utf8)) != nil)
        let rekey = try CLI.run(["copy", file, rekeyed, "--key", Self.key, "--new-key", Self.otherKey])
        #expect(rekey.status == 0, "\(rekey.stderr)")
        #expect(try CLI.run(["check", rekeyed, "--key", Self.otherKey]).status == 0)
        expectFailure(try CLI.run(["check", rekeyed, "--key", Self.key]), status: 1, contains: "wrong encryption key")
        let encrypt = try CLI.run(["copy", plain, again, "--new-key", Self.key])
        #expect(encrypt.status == 0, "\(encrypt.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: again)).range(of: Data("张三".utf8)) == nil)
        expectFailure(
            try CLI.run(["copy", file, s.path("x.realm"), "--key", Self.key, "--decrypt", "--new-key", Self.key]),
            status: 64, contains: "not both")
    }

    /// With standard error closed the prompt cannot show, and the explorer still gives up
    /// cleanly on an empty key (writing the prompt trapped).
    @Test(
        .tags(.tmux),
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func theKeyPromptWithStandardErrorClosedDoesNotTrap() throws {
        let s = try Scratch()
        let file = try Self.encryptedDatabase(s)
        let script = """
            LANG=C.UTF-8 TERM=xterm-256color \(TmuxSession.quoted(CLI.executable.path)) \(TmuxSession.quoted(file)) 2>&-
            echo "exit=$?"
            echo "script done"
            sleep 120
            """
        let tmux = try TmuxSession(script: script, width: 120, height: 30)
        defer { tmux.close() }
        // The prompt is reading once echo is off (it turns echo off before writing the prompt,
        // which is what trapped); or the program has already ended. Not a 1 s sleep.
        try tmux.waitUntil("the key prompt") { try tmux.echoIsOff() || $0.contains("script done") }
        try tmux.sendKeys("Enter")
        let text = try tmux.waitFor("script done")
        #expect(text.contains("exit=1"), "\(text)")
    }

    @Test(
        .tags(.tmux),
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func theExplorerAsksForTheKeyBeforeTakingTheScreen() throws {
        let s = try Scratch()
        let file = try Self.encryptedDatabase(s)
        let before = FileManager.default.contents(atPath: file)
        do {
            // No key typed: the error the other commands give, before the screen is taken.
            let tmux = try TmuxSession(script: ExplorerEntryTests.script([file]), width: 120, height: 30)
            defer { tmux.close() }
            _ = try tmux.waitFor("is encrypted. Key")
            try tmux.sendKeys("Enter")
            let text = try tmux.waitFor("script done")
            let lines = text.split(separator: "\n")
            #expect(lines.filter { $0.hasPrefix("error: ") }.count == 1, "\(text)")
            #expect(
                lines.contains { $0.contains("the file is encrypted: give its key with --key HEX or --key-file PATH") },
                "\(text)")
            #expect(lines.contains("exit=1"), "\(text)")
            try ExplorerEntryTests.expectRestored(tmux, text, "no key")
        }
        #expect(FileManager.default.contents(atPath: file) == before)
        // A wrong key is said so and asked again; the right one opens the file; neither is echoed.
        let tmux = try TmuxSession(script: ExplorerEntryTests.script([file]), width: 120, height: 30)
        defer { tmux.close() }
        _ = try tmux.waitFor("is encrypted. Key")
        try tmux.type(Self.otherKey)
        try tmux.sendKeys("Enter")
        // The second prompt (shown once echo is off again), not just the error line before it.
        let retry = try tmux.waitUntil("a second prompt") { $0.components(separatedBy: "is encrypted. Key").count == 3 }
        #expect(retry.contains("wrong encryption key"), "\(retry)")
        #expect(!retry.contains(Self.otherKey), "the key was echoed: \(retry)")
        try tmux.type(Self.key)
        try tmux.sendKeys("Enter")
        let screen = try tmux.waitFor("Person")
        #expect(screen.contains("Dog"), "\(screen)")
        try tmux.sendKeys("q")
        let done = try tmux.waitFor("script done")
        #expect(done.contains("exit=0"), "\(done)")
        #expect(!done.contains(Self.key), "the key was echoed: \(done)")
    }

    @Test(
        .tags(.tmux),
        .enabled(
            if: TmuxSession.isAvailable, "tmux is not installed: the explorer's terminal tests need a real terminal"))
    func theExplorerOpensAnEncryptedFileWithTheKeyOption() throws {
        let s = try Scratch()
        let file = try Self.encryptedDatabase(s)
        let tmux = try TmuxSession(
            script: ExplorerEntryTests.script([file, "--key", Self.key]), width: 120, height: 30)
        defer { tmux.close() }
        let screen = try tmux.waitFor("Person")
        #expect(screen.contains("Dog"), "\(screen)")
        try tmux.sendKeys("q")
        _ = try tmux.waitFor("script done")
    }
}
