import Foundation
import Testing
@testable import RealmEngine

/// I/O errors at every call site (issue 11, the harness): for each fault kind and each call
/// index N of the workload (`FaultWorkload`), the Nth system call fails — once, or from then on —
/// and the engine must give a `RealmError` (never a crash or a wrong answer), leave a file that
/// passes `check` when reopened, and lose nothing it acknowledged. EINTR and short transfers must
/// be invisible.
@Suite(.tags(.integrity, .slow)) struct FaultInjectionTests {
    /// One way for a call to fail, and whether it keeps failing.
    struct Fault: CustomStringConvertible, Sendable {
        var failure: FaultPlan.Failure
        var sticky: Bool
        /// EINTR and short transfers are retried or continued by the engine: nothing may fail.
        var invisible: Bool {
            if case .error(let code) = failure { return code == EINTR }
            return true
        }
        var description: String {
            let what: String
            switch failure {
            case .error(EIO): what = "EIO"
            case .error(ENOSPC): what = "ENOSPC"
            case .error(EINTR): what = "EINTR"
            case .error(let code): what = "errno \(code)"
            case .short: what = "short transfer"
            }
            return what + (sticky ? " from then on" : " once")
        }
    }

    /// The faults run in CI. The engine never branches on EIO versus ENOSPC, so one of each
    /// mode covers both; `REALMTUI_ALL_FAULTS=1` runs the other two as well.
    static let faults: [Fault] =
        [
            Fault(failure: .error(EIO), sticky: false), Fault(failure: .error(ENOSPC), sticky: true),
            Fault(failure: .error(EINTR), sticky: false),
            Fault(failure: .short, sticky: false), Fault(failure: .short, sticky: true),
        ]
        + (ProcessInfo.processInfo.environment["REALMTUI_ALL_FAULTS"] == nil
            ? []
            : [
                Fault(failure: .error(ENOSPC), sticky: false), Fault(failure: .error(EIO), sticky: true),
            ])

    /// The calls a fault aims at: a sticky one, a device gone or full, only those that touch
    /// the device; one failure once, every call.
    static func calls(_ fault: Fault) -> Set<SystemCall> {
        fault.sticky ? SystemCall.deviceCalls : Set(SystemCall.allCases)
    }

    /// How many calls of the workload a fault plan counts (a dry run).
    static func callCount(_ fault: Fault) -> Int {
        let workload = FaultWorkload()
        let plan = FaultPlan(folder: workload.folder, calls: calls(fault), failure: fault.failure)
        FaultPlan.install(plan)
        workload.run()
        FaultPlan.remove(plan)
        return plan.count
    }

    /// Runs the workload with the Nth call failing as `fault` says, then checks the outcome;
    /// returns a description of every broken promise.
    static func run(_ fault: Fault, n: Int) -> (broken: [String], failed: Bool, errorState: Bool) {
        let workload = FaultWorkload()
        let plan = FaultPlan(
            folder: workload.folder, calls: calls(fault), failure: fault.failure, nth: n, sticky: fault.sticky)
        FaultPlan.install(plan)
        workload.deviceBack = {
            guard !plan.fired.isEmpty else { return false }
            FaultPlan.remove(plan)
            return true
        }
        workload.run()
        FaultPlan.remove(plan)
        let fired =
            plan.fired.first.map { "\($0.call) of \(URL(fileURLWithPath: $0.path).lastPathComponent)" } ?? "nothing"
        let context = "\(fault) at call \(n) (\(fired))"
        var broken = workload.broken.map { "\(context): \($0)" }
        for (step, error) in workload.errors {
            if !(error is RealmError) { broken.append("\(context): \(step) threw a non-RealmError \(error)") }
            if fault.invisible && !(workload.sawErrorState && step == "commit with the device back") {
                broken.append("\(context): \(step) failed: \(error)")
            }
        }
        // Reopened with the device back: a sound file holding what was acknowledged. A creation
        // that failed may leave an empty or blank file, which the next open with a schema initializes.
        let exists = FileManager.default.fileExists(atPath: workload.path)
        let failedCreation = workload.errors.first?.step == "open" && workload.model.isEmpty
        if exists && failedCreation {
            do {
                let realm = try Realm(path: workload.path, schema: Fixtures.people)
                if try realm.objects("Person").checkedCount() != 0 {
                    broken.append("\(context): a new file is not empty")
                }
            } catch {
                broken.append("\(context): the empty file a failed creation left does not open: \(error)")
            }
        }
        if exists {
            do {
                _ = try Realm.check(path: workload.path)
            } catch let error as RealmError where failedCreation && "\(error)".contains("a header slot is damaged") {
                // A creation that failed between its two header sectors (page 0 synced, slot 1's
                // sector not written) cannot be told from a file whose second version's sector was
                // destroyed; it is reported (`FileHeader.damagedSlots`), and it opens empty.
            } catch {
                broken.append("\(context): check after reopening failed: \(error)")
            }
        }
        do {
            let found = exists ? try FaultWorkload.contents(of: workload.path) : [:]
            if !workload.allows(found) {
                broken.append(
                    "\(context): reopened file holds \(found.count) objects, acknowledged \(workload.model.count)"
                        + (workload.uncertain.map { " (or \($0.count))" } ?? "")
                        + "; errors: \(workload.errors.map { "\($0.step): \($0.error)" })")
            }
        } catch {
            broken.append("\(context): reading after reopening failed: \(error)")
        }
        if workload.copied == nil && FileManager.default.fileExists(atPath: workload.copyPath) {
            broken.append("\(context): writeCopy threw but left its partial copy behind")
        }
        if let copied = workload.copied {
            do {
                _ = try Realm.check(path: workload.copyPath)
                if try FaultWorkload.contents(of: workload.copyPath) != copied {
                    broken.append("\(context): writeCopy returned but the copy differs")
                }
            } catch {
                broken.append("\(context): writeCopy returned but the copy does not check: \(error)")
            }
        }
        return (broken, !workload.errors.isEmpty, workload.sawErrorState)
    }

    /// Every fault at every call index the workload makes.
    @Test(arguments: faults)
    func everyCallFails(_ fault: Fault) throws {
        let calls = Self.callCount(fault)
        #expect(calls > 20)
        var broken: [String] = []
        var failedRuns = 0
        var errorStates = 0
        for n in 1...calls {
            let outcome = Self.run(fault, n: n)
            broken += outcome.broken
            failedRuns += outcome.failed ? 1 : 0
            errorStates += outcome.errorState ? 1 : 0
        }
        // Not vacuous: errors surface, and a device that stays gone reaches the ERROR state.
        if !fault.invisible { #expect(failedRuns > calls / 2) }
        if fault.sticky && !fault.invisible { #expect(errorStates > 0) }
        // One line per kind of broken promise (the call index and folder names stripped).
        var kinds: [String: String] = [:]
        for line in broken {
            let key = line.replacing(/at call \d+/, with: "").replacing(/realmtui-faults-[0-9A-F-]+/, with: "")
            if kinds[key] == nil { kinds[key] = line }
        }
        #expect(
            broken.isEmpty,
            Comment(
                rawValue: "\(broken.count) broken promises in \(calls) runs, \(kinds.count) kinds:\n"
                    + kinds.values.sorted().prefix(60).joined(separator: "\n")))
    }

    /// The workload reaches every kind of call the engine makes on a file-backed Realm, so the
    /// enumeration above injects into each of them (the futex calls are `NotificationChannelFaultTests`';
    /// `fileLock`, made only on encrypted files, is `ConcurrentCreationTests`').
    @Test func theWorkloadMakesEveryKindOfCall() {
        let workload = FaultWorkload()
        let plan = FaultPlan(folder: workload.folder, failure: .error(EIO))
        FaultPlan.install(plan)
        workload.run()
        FaultPlan.remove(plan)
        #expect(workload.errors.isEmpty)
        let missing = Set(SystemCall.allCases).subtracting([.futexWait, .lockTest, .fileLock]).subtracting(
            plan.seen.keys)
        #expect(missing.isEmpty, "never called: \(missing)")
    }
}
