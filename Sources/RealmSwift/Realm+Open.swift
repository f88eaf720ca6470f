import Foundation

extension Realm {
    /// When to download all data from the server before opening a synchronized Realm, as
    /// RealmSwift's `Realm.OpenBehavior`. A local Realm opens the same way with each.
    public enum OpenBehavior: Sendable {
        /// Open at once, as the synchronous initializer does; a synchronized Realm downloads new
        /// data in the background.
        case never
        /// Download all data from the server before returning the Realm.
        case always
        /// Download before returning the first time the Realm's file is opened on this device,
        /// then open at once.
        case once
    }

    /// Opens a Realm isolated to the calling actor, as RealmSwift's `Realm.open`: usable from
    /// code isolated to that actor (see `init(configuration:actor:)`).
    ///
    /// ```swift
    /// @MainActor func load() async throws {
    ///     let realm = try await Realm.open(configuration: config)
    /// }
    /// ```
    ///
    /// - parameter downloadBeforeOpen: a local Realm opens alike with each. This build's sync
    ///   cannot wait for a whole download: a synchronized configuration opens with `.never`
    ///   (the agent downloads in the background), and `.always`, or `.once` for a file not yet
    ///   on this device, throw `RealmError.unsupportedFeature` before anything is opened.
    /// - throws: what `Realm(configuration:)` throws.
    public static func open(
        configuration: Configuration = .defaultConfiguration,
        _isolation actor: isolated any Actor = #isolation,
        downloadBeforeOpen: OpenBehavior = .never
    ) async throws -> Realm {
        if configuration.sync != nil && downloadBeforeOpen != .never {
            let exists = configuration.fileURL.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
            if downloadBeforeOpen == .always || !exists {
                throw RealmError.unsupportedFeature(
                    "downloadBeforeOpen: .\(downloadBeforeOpen) needs a download that completes before the open, "
                        + "which this sync cannot wait for; open with .never (the agent downloads in the background)"
                )
            }
        }
        return try await Realm(configuration: configuration, actor: actor)
    }
}
