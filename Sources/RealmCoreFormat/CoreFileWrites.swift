import Foundation
import RealmEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing bytes into a Realm file, shared by the whole-file replacement (`replaceFile`) and the
/// in-place commit: every byte or an error naming the file and the call.
enum CoreFileWrites {
    /// A failed system call on `path` as `RealmError.io`, with its errno's text.
    static func failure(_ operation: String, _ path: String, _ code: Int32) -> RealmError {
        RealmError.io(path: path, operation: operation, errno: code, message: String(cString: strerror(code)))
    }

    /// Writes all of `bytes` at `offset` of `fd`, going on after an interrupted or short write;
    /// a write that makes no progress is reported as a full disk (ENOSPC).
    static func write(_ bytes: [UInt8], to fd: Int32, at offset: Int, path: String) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { pwrite(fd, $0 + done, buffer.count - done, off_t(offset + done)) } ?? 0
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw failure("write", path, n < 0 ? errno : ENOSPC) }
            done += n
        }
    }
}
