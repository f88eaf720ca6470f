import Foundation
import RealmEngine
import Testing

/// `RealmError.cause`: the lower-level error an engine error reports (issue 28, item 5).
@Suite struct RealmErrorCauseTests {
    @Test func aFailedSystemCallIsCausedByItsPOSIXError() {
        let full = RealmError.io(path: "x.realm", operation: "write", errno: ENOSPC, message: "No space left on device")
        #expect((full.cause as? POSIXError)?.code == .ENOSPC, "\(String(describing: full.cause))")
        // An errno the system does not name has no POSIX error to give.
        #expect(RealmError.io(path: "x.realm", operation: "write", errno: 99_999, message: "?").cause == nil)
    }

    @Test func aServerRefusalIsCausedByTheServersErrorAndShowsItsState() {
        let refused = RealmError.server(
            server: "postgres://u@h:5432/d", operation: "query", state: "23505",
            message: "duplicate key value violates unique constraint")
        #expect(
            refused.cause as? ServerFailure
                == ServerFailure(state: "23505", message: "duplicate key value violates unique constraint"))
        #expect(
            refused.description
                == "postgres://u@h:5432/d: query failed: duplicate key value violates unique constraint (SQLSTATE 23505)"
        )
        let unreachable = RealmError.server(
            server: "postgres://u@h:5432/d", operation: "connect", state: "", message: "no route to host")
        #expect(unreachable.description == "postgres://u@h:5432/d: connect failed: no route to host")
        #expect((unreachable.cause as? ServerFailure)?.state == "")
    }

    @Test func anErrorOfItsOwnHasNoCause() {
        #expect(RealmError.fileNotFound(path: "x.realm").cause == nil)
        #expect(RealmError.corruptFile(path: "x.realm", offset: 64, reason: "bad").cause == nil)
    }
}
