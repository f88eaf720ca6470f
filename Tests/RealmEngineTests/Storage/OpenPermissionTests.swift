import Foundation
import Testing
@testable import RealmEngine

/// A file that cannot be opened for writing is an `io` error saying why (EACCES, EROFS). The
/// engine used to add "try --read-only", a flag of some CLI commands only, so `compact`, `import`
/// and library users were told to use a flag they do not have.
@Suite struct OpenPermissionTests {
    @Test(arguments: [EACCES, EROFS])
    func aRefusedWritableOpenSuggestsNoFlag(_ code: Int32) throws {
        let dir = TempDir()
        let path = dir.path("locked.realm")
        do { _ = try Realm(path: path, schema: Fixtures.people) }
        let plan = FaultPlan(folder: path, calls: [.open], failure: .error(code), nth: 1)
        FaultPlan.install(plan)
        defer { FaultPlan.remove(plan) }
        var thrown: (any Error)?
        do { _ = try Realm(path: path, schema: Fixtures.people) } catch { thrown = error }
        #expect(plan.fired.count == 1)
        guard let error = thrown as? RealmError, case .io(_, let operation, let errno, let message) = error else {
            Issue.record("expected an io error, got \(String(describing: thrown))")
            return
        }
        #expect(errno == code)
        #expect(operation == "open for writing")
        #expect(!message.contains("--read-only"), "\(message)")
        let description = error.description
        #expect(!description.contains("--read-only"), "\(description)")
    }
}
