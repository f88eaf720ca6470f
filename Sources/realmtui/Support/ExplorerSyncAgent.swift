import Foundation
import RealmEngine
import RealmSync
import RealmTUI

/// `:sync` in the explorer: the agent `realmtui sync FILE` runs (`SyncAgent.runForeground`),
/// on a thread of its own, its events told to the explorer as status.
enum ExplorerSyncAgent {
    static let starter: ExplorerSyncStarter = { path, report in
        let control = try SyncAgent.startInBackground(
            path: path,
            report: { event in
                switch event {
                case .connected(let server, _): report(.connected(server: server))
                case .disconnected(let message, let retryIn):
                    report(.retrying("\(message); retrying in \(String(format: "%.1f", retryIn)) s"))
                case .transfer(let transfer): report(.transfer(transfer.description))
                case .progress: report(.caughtUp)
                }
            },
            ended: { error in
                if let error {
                    report(.failed((error as? RealmError)?.description ?? String(describing: error)))
                } else {
                    report(.stopped)
                }
            })
        return { control.stop() }
    }
}
