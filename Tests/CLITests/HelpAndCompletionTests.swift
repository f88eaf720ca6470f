import Foundation
import Testing
import RealmEngine

/// Help that answers the questions a new user has, shell completion, and CSV import.
@Suite(.tags(.multiProcess)) struct HelpAndCompletionTests {
    @Test func createHelpListsEveryPropertyTypeAndForm() throws {
        let help = try CLI.run(["create", "--help"]).stdout
        for type in PropertyType.allCases where type != .object {
            #expect(help.contains(type.rawValue), "create --help does not name \(type.rawValue)")
        }
        for form in [
            #""int?""#, #""string[]""#, #""Person""#, #""Person[]""#, #""indexed""#, #""default""#, #""primaryKey""#,
        ] {
            #expect(help.contains(form), "create --help does not show \(form)")
        }
    }

    @Test func importHelpShowsTheValueSyntax() throws {
        let help = try CLI.run(["import", "--help"]).stdout
        for form in [
            "ISO 8601", "epoch ms", "base64", "objectId", "uuid", "$ref", "null", "--class", "CSV", "--ignore-unknown",
            "--upsert-duplicates",
        ] {
            #expect(help.contains(form), "import --help does not show \(form)")
        }
        #expect(try CLI.run(["update", "--help"]).stdout.contains("epoch ms"))
    }

    @Test func bashCompletionOffersFilesAndTheFilesClasses() throws {
        let s = try Scratch()
        let db = try s.database("pets.realm")
        let script = try CLI.run(["--generate-completion-script", "bash"])
        try #require(script.status == 0)
        let scriptFile = try s.write("completion.bash", script.stdout)
        let exe = CLI.executable.path
        let driver = """
            source '\(scriptFile)'
            complete_words() {
                COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                _realmtui "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"; printf '%s\\n' "${COMPREPLY[@]}"; echo ---
            }
            cd '\(s.url.path)'
            complete_words '\(exe)' query pets.realm ''
            complete_words '\(exe)' export pets.realm --class ''
            complete_words '\(exe)' query ''
            """
        let r = try CLI.run([], executable: "/bin/bash", arguments: ["-c", driver])
        let parts = r.stdout.components(separatedBy: "---\n")
        try #require(parts.count >= 3, "\(r.stdout)\(r.stderr)")
        #expect(Set(parts[0].split(separator: "\n")) == ["Person", "Dog"], "\(parts[0])")
        #expect(Set(parts[1].split(separator: "\n")) == ["Person", "Dog"], "\(parts[1])")
        #expect(parts[2].split(separator: "\n").contains { $0 == "pets.realm" }, "\(parts[2])")
        _ = db
    }

    @Test func csvImportTellsNilFromTheEmptyStringAndChecksTheHeader() throws {
        let s = try Scratch()
        let db = try s.database()
        let csv = "id,name,age,dogs\r\n6,\"\",,\"[{\"\"$ref\"\":\"\"Dog\"\",\"\"$index\"\":1}]\"\r\n7,null,8,[]\r\n"
        let r = try CLI.run(["import", db, try s.write("p.csv", csv), "--class", "Person"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            try CLI.run([
                "query", db, "Person", "id == 6 AND name == '' AND age == nil AND ANY dogs.name == '小白'",
                "--format", "count",
            ]).stdout == "1\n")
        #expect(
            try CLI.run(["query", db, "Person", "id == 7 AND name == 'null' AND age == 8", "--format", "count"]).stdout
                == "1\n")
        try expectUnchanged(db) {
            let required = try CLI.run(["import", db, try s.write("r.csv", "id,name\n9,\n"), "--class", "Person"])
            expectFailure(required, contains: "Person[0] (id 9)")
            #expect(required.stderr.contains("name"))
        }
        let bad = try CLI.run(["import", db, try s.write("q.csv", "id,nmae\r\n8,x\r\n"), "--class", "Person"])
        expectFailure(bad, contains: "nmae")
        expectFailure(try CLI.run(["import", db, s.path("q.csv")]), status: 64, contains: "--class")
    }
}

/// The README a new user reads first.
@Suite(.tags(.multiProcess)) struct ReadmeTests {
    static let text: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test func saysHowToInstallAndCompleteAndWhatTheFormatIs() {
        #expect(Self.text.contains("swift build -c release"))
        #expect(Self.text.contains(".build/release/realmtui"))
        #expect(Self.text.contains("PATH"))
        #expect(Self.text.contains("--generate-completion-script bash"))
        #expect(Self.text.contains("not Realm Core's"))
    }

    @Test func namesNoPathOutsideTheRepository() {
        #expect(!Self.text.isEmpty)
        #expect(!Self.text.contains("../"), "README refers to a path outside the repository")
    }

    /// The shell examples pass a query's `$0` to realmtui as it is written. Before, they were
    /// double-quoted, so pasted into a shell `$0` became the shell's name ("bash").
    @Test func shellExamplesPassTheirQueryArgumentsAsWritten() throws {
        let lines = Self.text.split(separator: "\n").map(String.init)
            .filter { $0.hasPrefix("realmtui ") && $0.contains("$0") }
        #expect(!lines.isEmpty)
        for line in lines {
            let bash = Process()
            bash.executableURL = URL(fileURLWithPath: "/bin/bash")
            // The line as a shell reads it, with printf in place of realmtui.
            bash.arguments = ["-c", "printf '[%s]\\n' " + line.dropFirst("realmtui ".count)]
            let out = Pipe()
            let err = Pipe()
            bash.standardOutput = out
            bash.standardError = err
            try bash.run()
            let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            bash.waitUntilExit()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(bash.terminationStatus == 0, "\(line): \(stderr)")
            #expect(printed.contains("$0"), "pasted, \(line) passes: \(printed)")
        }
    }

    /// The completion command the README gives works.
    @Test func theCompletionCommandsWork() throws {
        for shell in ["bash", "zsh", "fish"] {
            #expect(Self.text.contains("--generate-completion-script \(shell)"))
            let r = try CLI.run(["--generate-completion-script", shell])
            #expect(r.status == 0 && r.stdout.contains("realmtui"), "\(shell): \(r.stderr)")
        }
    }
}
