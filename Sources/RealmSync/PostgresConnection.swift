import CPostgres
import Foundation
import RealmEngine

/// One connection to a PostgreSQL server through libpq. Credentials come from wherever libpq
/// finds them (the URL, `PG*` variables, `~/.pgpass`); this type never stores or prints the
/// password: errors name the server as `server` (user, host, port and database only).
///
/// Not thread-safe (libpq's connection is not): one owner uses it at a time.
public final class PostgresConnection {
    private let connection: OpaquePointer
    /// The server as `postgres://user@host:port/database`, for messages (never the password).
    public let server: String

    /// Connects to `url` (a `postgres://` or `postgresql://` URL, or a libpq `key=value` string;
    /// empty: only `PG*` variables and libpq's defaults).
    /// - Throws: `RealmError.io` naming the server when the connection fails.
    public init(url: String) throws {
        guard let connection = PQconnectdb(url) else {
            throw RealmError.resourceLimit("libpq could not allocate a connection")
        }
        self.connection = connection
        self.server = PostgresConnection.describe(connection)
        guard PQstatus(connection) == CONNECTION_OK else {
            // Every stored property is set, so deinit runs and calls PQfinish (calling it here too
            // freed the connection twice).
            let message = PostgresConnection.message(PQerrorMessage(connection))
            throw RealmError.server(server: server, operation: "connect", state: "", message: message)
        }
        // Notices (e.g. "relation already exists, skipping") would go to stderr by default.
        _ = try execute("SET client_min_messages TO warning")
    }

    deinit { PQfinish(connection) }

    /// The server's description from the connection's own options: libpq has already merged the
    /// URL, the environment and its defaults, and the password is not among them.
    private static func describe(_ connection: OpaquePointer) -> String {
        func text(_ value: UnsafeMutablePointer<CChar>?) -> String { value.map { String(cString: $0) } ?? "" }
        let host = text(PQhost(connection))
        let port = text(PQport(connection))
        let user = text(PQuser(connection))
        let database = text(PQdb(connection))
        return "postgres://\(user.isEmpty ? "" : user + "@")\(host.isEmpty ? "localhost" : host)"
            + "\(port.isEmpty ? "" : ":" + port)/\(database)"
    }

    private static func message(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        let text = pointer.map { String(cString: $0) } ?? "unknown error"
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs one statement with text parameters (`$1`, `$2`, …; nil is SQL NULL) and returns its rows
    /// as text (nil for NULL).
    /// - Throws: `RealmError.server` naming the server, with the server's SQLSTATE and message.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> PostgresRows {
        let result: OpaquePointer? = withCStrings(parameters) { pointers in
            PQexecParams(connection, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
        guard let result else {
            throw RealmError.server(server: server, operation: "query", state: "", message: PostgresConnection.message(PQerrorMessage(connection)))
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            throw RealmError.server(server: server, operation: "query", state: state,
                                    message: PostgresConnection.message(PQresultErrorMessage(result)))
        }
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        var rows: [[String?]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            rows.append((0..<columnCount).map { column in
                PQgetisnull(result, Int32(row), Int32(column)) == 1
                    ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
            })
        }
        let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
        return PostgresRows(columns: columns, rows: rows, affected: affected)
    }

    /// Whether the connection still works (libpq's status; a dropped server connection is bad).
    public var isConnected: Bool { PQstatus(connection) == CONNECTION_OK }

    /// The connection's socket, to wait on with `poll` for notifications (-1 when there is none).
    public var socket: Int32 { PQsocket(connection) }

    /// Starts listening on `channel` (`LISTEN`): its notifications come from `notifications()`.
    public func listen(_ channel: String) throws {
        try execute("LISTEN \(SyncServerSchema.identifier(channel))")
    }

    /// The notifications that arrived: reads what the socket holds without blocking, then takes
    /// every notification libpq has (also those that came in with the replies of other
    /// statements), as (channel, payload).
    /// - Throws: `RealmError.server` naming the server when the connection is lost.
    public func notifications() throws -> [(channel: String, payload: String)] {
        guard PQconsumeInput(connection) == 1 else {
            throw RealmError.server(server: server, operation: "listen", state: "",
                                    message: PostgresConnection.message(PQerrorMessage(connection)))
        }
        var received: [(channel: String, payload: String)] = []
        while let notify = PQnotifies(connection) {
            received.append((String(cString: notify.pointee.relname), String(cString: notify.pointee.extra)))
            PQfreemem(notify)
        }
        return received
    }

    /// Runs `body` inside one SQL transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    private func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let owned: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } ?? nil }
        defer { owned.forEach { free($0) } }
        return body(owned.map { $0.map { UnsafePointer($0) } })
    }
}

/// The rows of one statement, as text.
public struct PostgresRows: Sendable {
    /// The result's column names.
    public var columns: [String]
    /// The rows; nil is SQL NULL.
    public var rows: [[String?]]
    /// The rows the statement inserted, updated or deleted.
    public var affected: Int
}
