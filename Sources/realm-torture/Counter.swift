import Foundation
import RealmEngine

#if canImport(Glibc)
    import Glibc
#endif

/// `counter PATH LOG T N`: the many-processes test's worker (issue 11). T threads, each with its
/// own `Realm` (instances are confined to their thread), share N increments of Counter(id: 0),
/// one write transaction each: read, +1, commit.
///
/// Every thread appends to LOG (opened `O_APPEND`, so each line is one atomic `write`, and a
/// SIGKILL loses nothing already written — only a power loss would):
/// - `lock T`  when its write lock was granted (T: CLOCK_REALTIME in nanoseconds), and
/// - `ack V`   after `commitWrite` returned, V the value that commit wrote.
/// The supervisor kills this process at random moments; an increment committed but not yet
/// acknowledged is "in flight" and may or may not be in the file.
func runCounter(path: String, schema: Schema, log: String, threads: Int, total: Int) {
    let fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    guard fd >= 0 else { fail("cannot open \(log): errno \(errno)") }
    @Sendable func append(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
        if written != bytes.count { fail("cannot append to \(log): errno \(errno)") }
        bytes.removeAll()
    }
    @Sendable func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
    // Open (and create) the file once before the threads start, so they do not race to create it.
    do { _ = try Realm(path: path, schema: schema) } catch { fail("\(error)") }
    let done = DispatchGroup()
    for t in 0..<threads {
        let share = total / threads + (t < total % threads ? 1 : 0)
        done.enter()
        Thread.detachNewThread {
            defer { done.leave() }
            do {
                let realm = try Realm(path: path, schema: schema)
                for _ in 0..<share {
                    try realm.beginWrite()
                    append("lock \(now())")
                    let value = try addOneToCounter(in: realm)
                    try realm.commitWrite()
                    append("ack \(value)")
                }
            } catch {
                fail("\(error)")
            }
        }
    }
    done.wait()
    close(fd)
}
