import Foundation
import RealmEngine

/// How `realmtui FILE` opens a file for the explorer: writable unless there is a reason not to,
/// and then read-only with the reason shown (edit keys offer `:copy PATH`, which writes a
/// writable copy — the "edit a bundled seed file" flow).
public enum ExplorerOpen {
    /// Why `path` should open read-only, or nil to open it writable: `--read-only`, a file
    /// without write permission (its mode bits, so even root is not let loose on a file marked
    /// read-only), a read-only folder (the lock file cannot be created beside it), or a bundled
    /// seed file (a file in a folder named `Resources`) unless `editSeedFile` (`--write`) says
    /// the user means to edit it: browsing an app's seed file should not change it by a stray key.
    public static func readOnlyReason(path: String, requested: Bool, editSeedFile: Bool = false) -> String? {
        if requested { return "--read-only" }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let folder = url.deletingLastPathComponent()
        if folder.lastPathComponent == "Resources" && !editSeedFile {
            return "a bundled seed file (Resources/; --write edits it)"
        }
        if !isWritable(url.path) { return "the file has no write permission" }
        if !isWritable(folder.path) { return "its folder is read-only" }
        return nil
    }

    /// Opens `path` for the explorer (`editSeedFile`: as in `readOnlyReason`): read-only for a `readOnlyReason`, or when the system
    /// refuses to open it for writing (EACCES, EROFS: a read-only file system).
    public static func open(
        path: String, readOnly requested: Bool,
        editSeedFile: Bool = false
    ) throws -> (realm: Realm, readOnlyReason: String?) {
        if let reason = readOnlyReason(path: path, requested: requested, editSeedFile: editSeedFile) {
            return (try Realm(path: path, readOnly: true), reason)
        }
        do {
            return (try Realm(path: path), nil)
        } catch RealmError.io(_, _, let code, _) where code == EACCES || code == EROFS || code == EPERM {
            return (try Realm(path: path, readOnly: true), "the system refuses to open it for writing")
        }
    }

    /// Whether the path's mode has a write bit and the process may write it.
    private static func isWritable(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return info.st_mode & 0o222 != 0 && access(path, W_OK) == 0
    }
}
