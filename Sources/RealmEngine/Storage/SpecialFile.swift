#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Names what a path is when it is not a regular file, for the errors that refuse it as a
/// database (or lock) file: a FIFO would hang an open and a device (a link to /dev/zero) reads
/// as an empty or endless file, so both are refused, saying which they are.
public enum SpecialFile {
    /// "a FIFO (named pipe)", "a character device", …: what a file of `mode` is; nil for a
    /// regular file.
    public static func kind(ofMode mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// What `path` names (following symbolic links) when it is not a regular file; nil for a
    /// regular file and for a path that names nothing.
    public static func kind(atPath path: String) -> String? {
        var info = stat()
        guard SystemCalls.stat(path, &info) == 0 else { return nil }
        return kind(ofMode: info.st_mode)
    }
}
