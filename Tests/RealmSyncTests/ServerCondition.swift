import Foundation
import Testing

/// Whether a PostgreSQL server is reachable through `PG*` variables (`pg_virtualenv` sets them).
/// Without one the sync suites are skipped, and the skip says why.
let hasServer = ProcessInfo.processInfo.environment["PGHOST"] != nil
let noServerReason: Comment =
    "no PGHOST: run under pg_virtualenv (e.g. 'pg_virtualenv -- swift test') to test sync against a real server"
