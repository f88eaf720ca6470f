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
    /// Statements sent through `execute` so far (each one round trip to the server): lets tests
    /// and benchmarks see what an upload costs.
    public private(set) var statements = 0
    /// Bytes of statement text and parameters sent through `execute` so far (what a transfer's
    /// progress reports for an upload; libpq's framing not counted).
    public private(set) var bytesSent = 0
    /// Bytes of result values received through `execute` so far (a download's progress).
    public private(set) var bytesReceived = 0

    /// Connects to `url` (a `postgres://` or `postgresql://` URL, or a libpq `key=value` string;
    /// empty: only `PG*` variables and libpq's defaults).
    /// - Throws: `RealmError.server` naming the server when the connection fails: operation
    ///   `connect` with the server's SQLSTATE when the server refused the client (`28P01` a wrong
    ///   password, `3D000` no such database, `57P03` starting up…) or an empty state when it was not
    ///   reached at all; `authenticate` when the server wants a password and none was found;
    ///   `configure` when the URL or a `PG*` variable cannot be used (nothing was tried).
    public init(url: String) throws {
        guard let connection = PQconnectStart(url) else {
            throw RealmError.resourceLimit("libpq could not allocate a connection")
        }
        self.connection = connection
        // Every stored property is set from here on, so deinit runs and calls PQfinish (calling it
        // here too freed the connection twice).
        self.server = PostgresConnection.describe(connection)
        let failure = PostgresConnection.establish(connection)
        // Verbose messages (set for the connection's own errors) carry the SQLSTATE, which tells
        // a wrong password from a server that is starting up; statements report theirs through
        // PQresultErrorField and keep libpq's ordinary messages.
        PQsetErrorVerbosity(connection, PQERRORS_DEFAULT)
        if let failure {
            throw RealmError.server(
                server: server, operation: failure.operation, state: failure.state, message: failure.message)
        }
        // Notices (e.g. "relation already exists, skipping") would go to stderr by default.
        _ = try execute("SET client_min_messages TO warning")
    }

    /// Drives a connection `PQconnectStart` began until it is made or fails, waiting on its socket.
    /// Returns nil when connected, else what failed (see `init`).
    private static func establish(_ connection: OpaquePointer) -> (operation: String, state: String, message: String)? {
        // Options libpq cannot use fail here, before any network.
        guard PQstatus(connection) != CONNECTION_BAD else {
            return ("configure", "", message(PQerrorMessage(connection)))
        }
        PQsetErrorVerbosity(connection, PQERRORS_VERBOSE)
        var status = PGRES_POLLING_WRITING
        while status == PGRES_POLLING_READING || status == PGRES_POLLING_WRITING {
            var fd = pollfd(
                fd: PQsocket(connection), events: Int16(status == PGRES_POLLING_READING ? POLLIN : POLLOUT), revents: 0)
            // No timer of our own here (as PQconnectdb without connect_timeout): the kernel ends
            // a connect that gets no answer.
            while poll(&fd, 1, -1) < 0 && errno == EINTR {}
            status = PQconnectPoll(connection)
        }
        guard status == PGRES_POLLING_FAILED else { return nil }
        let (state, text) = plainMessage(message(PQerrorMessage(connection)))
        if PQconnectionNeedsPassword(connection) == 1 { return ("authenticate", "", text) }
        return ("connect", state, text)
    }

    /// A verbose libpq message split into its SQLSTATE (the code after the severity, "FATAL:  28P01:
    /// …"; empty when the server never answered) and the message without the code and the
    /// server's source location.
    static func plainMessage(_ verbose: String) -> (state: String, text: String) {
        var state = ""
        var lines: [String] = []
        for line in verbose.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("LOCATION:") { continue }
            var text = String(line)
            if state.isEmpty, let match = text.firstMatch(of: #/:  ([0-9A-Z]{5}): /#) {
                state = String(match.output.1)
                text.replaceSubrange(match.range, with: ":  ")
            }
            lines.append(text)
        }
        return (state, lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines))
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
        statements += 1
        bytesSent += sql.utf8.count + parameters.reduce(0) { $0 + ($1?.utf8.count ?? 0) }
        let result: OpaquePointer? = withCStrings(parameters) { pointers in
            PQexecParams(connection, sql, Int32(parameters.count), nil, pointers, nil, nil, 0)
        }
        guard let result else {
            throw RealmError.server(
                server: server, operation: "query", state: "",
                message: PostgresConnection.message(PQerrorMessage(connection)))
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            throw RealmError.server(
                server: server, operation: "query", state: state,
                message: PostgresConnection.message(PQresultErrorMessage(result)))
        }
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        var rows: [[String?]] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            rows.append(
                (0..<columnCount).map { column in
                    bytesReceived += Int(PQgetlength(result, Int32(row), Int32(column)))
                    return PQgetisnull(result, Int32(row), Int32(column)) == 1
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
            throw RealmError.server(
                server: server, operation: "listen", state: "",
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
