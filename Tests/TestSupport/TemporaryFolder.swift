import Foundation

/// A fresh temporary folder for one test, removed when the value is released.
public final class TempDir: Sendable {
    /// The folder.
    public let url: URL

    /// Makes the folder; `label` starts its name, so a folder left by a crashed run says which
    /// tests made it.
    public init(_ label: String = "realmtui-tests") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
