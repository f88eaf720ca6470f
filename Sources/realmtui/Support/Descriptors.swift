import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// The descriptors a command still needs before it first uses libdispatch (a signal source):
/// libdispatch makes its event loop then (an epoll and an eventfd, a timerfd for timers), and when
/// it cannot get one it stops the process with SIGILL, which no caller can catch. Under a small
/// `ulimit -n` the command ends with an `error:` line instead.
enum Descriptors {
    /// What libdispatch's event loop takes: an epoll, an eventfd and a timerfd.
    static let forDispatch = 3

    /// Throws a `CLIFailure` unless `count` more descriptors can be opened now (each is opened
    /// on /dev/null and closed again).
    static func requireFree(_ count: Int = forDispatch) throws {
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        for _ in 0..<count {
            let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
            if fd < 0 {
                let code = errno
                guard code == EMFILE || code == ENFILE else { return }  // not a shortage: let the command go on
                var limit = rlimit()
                let limitText =
                    getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max
                    ? " (ulimit -n is \(limit.rlim_cur))" : ""
                throw CLIFailure(
                    "too few file descriptors are left\(limitText): this command needs \(count) more "
                        + "than the files it has open; raise the limit with 'ulimit -n'")
            }
            opened.append(fd)
        }
    }
}
