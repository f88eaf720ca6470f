import Foundation
import RealmEngine
@testable import RealmSync
import TestSupport
import Testing
#if canImport(Glibc)
    import Glibc
#endif

/// What the foreground agent does when it cannot connect (issue 27): a server that refuses the
/// client for good (a wrong password, a database that does not exist) ends the agent with an
/// `error:` line and a non-zero exit; a server out of reach (nothing listening on the port) is
/// retried with the backoff until stopped.
@Suite(
    "realmtui sync FILE when the server refuses it (needs PGHOST: run under pg_virtualenv)",
    .enabled(if: hasServer, noServerReason))
struct SyncAgentErrorTests {
    /// Runs the agent of a synced file with `environment` over the test's own and waits for it to
    /// end by itself (no deadline: an agent that retries forever is the runner's timeout to catch).
    func agentEnds(environment: [String: String]) throws -> (status: Int32, agent: RunningAgent) {
        let files = try SyncFixture.twoSyncedFiles()
        let agent = try RunningAgent(files.a, environment: environment)
        return (agent.waitForExit(), agent)
    }

    @Test func aWrongPasswordEndsTheAgentWithAnError() throws {
        let password = "wrong-\(UUID().uuidString)"
        let (status, agent) = try agentEnds(environment: ["PGPASSWORD": password])
        #expect(status == 1, "\(agent.description)")
        let stderr = agent.stderr
        #expect(stderr.contains("error:") && stderr.contains("password authentication failed"), "\(agent.description)")
        #expect(!stderr.contains("retrying"), "\(agent.description)")
        #expect(!stderr.contains(password) && !agent.stdout.contains(password), "\(agent.description)")
        // The server is named (user, host, port, database).
        #expect(stderr.contains("postgres://"), "\(agent.description)")
    }

    @Test func aDatabaseThatDoesNotExistEndsTheAgentWithAnError() throws {
        let database = "no_such_db_\(UUID().uuidString.prefix(8).lowercased())"
        let (status, agent) = try agentEnds(environment: ["PGDATABASE": database])
        #expect(status == 1, "\(agent.description)")
        #expect(agent.stderr.contains("error:") && agent.stderr.contains(database), "\(agent.description)")
        #expect(!agent.stderr.contains("retrying"), "\(agent.description)")
    }

    @Test func aServerOutOfReachIsRetried() throws {
        let files = try SyncFixture.twoSyncedFiles()
        // A port nothing listens on: the one of a socket bound and closed again.
        let agent = try RunningAgent(files.a, environment: ["PGPORT": String(try SyncAgentErrorTests.freePort())])
        try RunningAgent.waitUntil([agent], "the agent retried twice") {
            agent.stderr.components(separatedBy: "retrying in").count > 2
        }
        #expect(agent.stop() == 0, "\(agent.description)")
        #expect(agent.stderr.contains("sync: "), "\(agent.description)")
    }

    /// A TCP port on localhost that nothing listens on right now.
    static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw AgentEnded(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw AgentEnded(description: "bind: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }
}
