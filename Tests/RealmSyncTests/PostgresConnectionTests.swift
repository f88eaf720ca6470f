import Foundation
import RealmEngine
@testable import RealmSync
import Testing

@Suite("PostgresConnection (needs PGHOST: run under pg_virtualenv)", .enabled(if: hasServer, noServerReason))
struct PostgresConnectionTests {
    @Test func parameterisedQueriesRoundTripTextAndNull() throws {
        let db = try PostgresConnection(url: "")
        let rows = try db.execute("SELECT $1::text AS a, $2::bigint + 1 AS b, $3::text AS c", ["it's", "41", nil])
        #expect(rows.columns == ["a", "b", "c"])
        #expect(rows.rows == [["it's", "42", nil]])
    }

    @Test func transactionRollsBackWhenTheBodyThrows() throws {
        let db = try PostgresConnection(url: "")
        try db.execute("CREATE TEMP TABLE t (n int PRIMARY KEY)")
        try db.transaction { try db.execute("INSERT INTO t VALUES (1)") }
        #expect(throws: RealmError.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (2)")
                try db.execute("INSERT INTO t VALUES (1)")  // unique violation
            }
        }
        #expect(try db.execute("SELECT n FROM t ORDER BY n").rows == [["1"]])
    }

    @Test func errorsNameTheServerButNeverThePassword() throws {
        let db = try PostgresConnection(url: "")
        do {
            try db.execute("SELECT * FROM no_such_table")
            Issue.record("no error")
        } catch let error as RealmError {
            guard case .server(_, _, let state, _) = error else {
                Issue.record("not a server error: \(error)")
                return
            }
            #expect(state == "42P01")
            #expect(error.description.contains("no_such_table"))
            #expect(error.description.hasPrefix("postgres://"))
        }
        let secret = "s3cr3t-pass-\(UInt32.random(in: 0...UInt32.max))"
        let user = ProcessInfo.processInfo.environment["PGUSER"] ?? "postgres"
        do {
            _ = try PostgresConnection(url: "postgresql://\(user):\(secret)@127.0.0.1:1/nodb?connect_timeout=2")
            Issue.record("connected to port 1")
        } catch let error as RealmError {
            #expect(!"\(error)".contains(secret))
            #expect("\(error)".contains("127.0.0.1:1"))
        }
    }
}
