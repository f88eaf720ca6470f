#if canImport(Glibc)
    import Glibc
#endif

extension DatabaseFile {
    /// Whether the path this file was opened by still names the inode it opened: false once the
    /// file was renamed over (`compact` replaces a file that way) or deleted. An in-memory file
    /// has no path and is always itself.
    func isStillAtPath() throws -> Bool {
        guard !isInMemory else { return true }
        var opened = stat()
        guard SystemCalls.fstat(fd, &opened, path: path) == 0 else { throw DatabaseFile.ioError(path, "fstat") }
        var named = stat()
        guard SystemCalls.stat(path, &named) == 0 else {
            if errno == ENOENT { return false }
            throw DatabaseFile.ioError(path, "stat")
        }
        return named.st_dev == opened.st_dev && named.st_ino == opened.st_ino
    }
}
