import Foundation
import Testing

@Suite("CLI usage", .tags(.multiProcess))
struct UsageTests {
    static let subcommands = [
        "create", "import", "export", "schema", "query", "update", "delete", "copy", "compact", "check", "demo",
    ]

    @Test(arguments: UsageTests.subcommands)
    func everySubcommandHasHelp(_ name: String) throws {
        let r = try CLI.run([name, "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("USAGE: realmtui \(name)"))
        #expect(r.stderr.isEmpty)
    }

    @Test func rootHelpListsEverySubcommand() throws {
        let r = try CLI.run(["--help"])
        #expect(r.status == 0)
        for name in UsageTests.subcommands { #expect(r.stdout.contains("  \(name) "), "\(name)") }
        #expect(try CLI.run(["--version"]).stdout == "0.1.0\n")
    }

    @Test func usageErrorsExit64WithOneErrorLine() throws {
        let cases: [[String]] = [
            ["frobnicate"], ["query"], ["query", "x.realm"], ["create", "x.realm"], ["import", "x.realm"],
            ["query", "x.realm", "Dog", "--limit", "many"], ["export", "x.realm", "--format", "xml"],
            ["query", "x.realm", "Dog", "--bogus"], ["demo", "x.realm", "--objects", "-1"],
        ]
        for args in cases {
            let r = try CLI.run(args)
            expectFailure(r, status: 64)
        }
    }
}
