import Foundation
import Testing
@testable import RealmEngine

/// Delivery: RunLoop and queue, coalescing, tokens, object notifications, `refresh()`,
/// `watchLines` on an empty file.
@Suite(.serialized) struct NotificationDeliveryTests {
    final class Counter: @unchecked Sendable {
        let lock = NSLock()
        var values: [String] = []
        func add(_ s: String) { lock.withLock { values.append(s) } }
        var count: Int { lock.withLock { values.count } }
        var all: [String] { lock.withLock { values } }
    }

    func open(_ dir: TempDir) throws -> (writer: Realm, observed: Realm) {
        let path = dir.path("n.realm")
        return (try Realm(path: path, schema: Fixtures.people), try Realm(path: path, schema: Fixtures.people))
    }

    @Test func realmNotificationsCoalesceCommits() throws {
        let dir = TempDir()
        let (writer, observed) = try open(dir)
        var calls: [UInt64] = []
        let token = observed.observe { note, realm in
            #expect(note == .didChange)
            calls.append(realm.version)
        }
        for i in 0..<5 { try writer.write { try writer.create("Dog", ["name": .string("d\(i)")]) } }
        // The notifier has computed up to the last commit before the RunLoop runs (the event,
        // not a 0.3 s sleep a loaded machine could outlast): one delivery carries all five.
        waitUntilComputed(token, upTo: writer.version)
        pumpRunLoop { observed.version == writer.version }
        runRunLoop(for: 0.2)
        #expect(calls == [writer.version])
        #expect(try observed.objects("Dog").count == 5)
        token.invalidate()
    }

    @Test func refreshDeliversSynchronously() throws {
        let dir = TempDir()
        let (writer, observed) = try open(dir)
        let dogs = try observed.objects("Dog").sorted(byKeyPath: "name")
        var changes: [String] = []
        let token = dogs.observe { change in
            switch change {
            case .initial(let r): changes.append("initial \(r.count)")
            case .update(let r, let d, let i, let m): changes.append("update \(r.count) \(d) \(i) \(m)")
            case .error(let e): changes.append("error \(e)")
            }
        }
        observed.refresh()
        #expect(changes == ["initial 0"])
        try writer.write {
            try writer.create("Dog", ["name": .string("b")])
            try writer.create("Dog", ["name": .string("a")])
        }
        observed.refresh()
        #expect(changes == ["initial 0", "update 2 [] [0, 1] []"])
        let b = try #require(try writer.objects("Dog").filter("name == 'b'").first)
        try writer.write { try b.setValue(.string("0"), forKey: "name") }
        observed.refresh()
        // [a, b] → [0(b), a]: one of the two moved (here a); b is modified at old index 1.
        #expect(changes.last == "update 2 [0] [1] [1]")
        try writer.write { try b.setValue(.int(7), forKey: "age") }
        observed.refresh()
        #expect(changes.last == "update 2 [] [] [0]")
        token.invalidate()
    }

    @Test func noCallbackAfterInvalidate() throws {
        let dir = TempDir()
        let (writer, observed) = try open(dir)
        var calls = 0
        let token = try observed.objects("Dog").observe { _ in calls += 1 }
        pumpRunLoop { calls == 1 }
        try writer.write { try writer.create("Dog", ["name": .string("x")]) }
        waitUntilComputed(token, upTo: writer.version)  // a delivery is scheduled by now
        token.invalidate()
        runRunLoop(for: 0.3)
        observed.refresh()
        #expect(calls == 1)
        // Releasing the token ends the registration too.
        var later = 0
        do { _ = try observed.objects("Dog").observe { _ in later += 1 } }
        try writer.write { try writer.create("Dog", ["name": .string("y")]) }
        runRunLoop(for: 0.3)
        observed.refresh()
        #expect(later == 0)
        #expect(observed.notificationHub?.isEmpty ?? true)
    }

    @Test func invalidateFromAnotherThreadWhileQueueDelivers() throws {
        let dir = TempDir()
        let (writer, observed) = try open(dir)
        let queue = DispatchQueue(label: "observer")
        let state = Counter()
        final class Flag: @unchecked Sendable {
            var invalidated = false
            var violations = 0
        }
        let flag = Flag()
        let token = try observed.objects("Dog").observe(on: queue) { change in
            if flag.invalidated { flag.violations += 1 }
            if case .update(let r, _, _, _) = change { state.add("\(r.count)") }
            Thread.sleep(forTimeInterval: 0.002)
        }
        for i in 0..<30 {
            try writer.write { try writer.create("Dog", ["name": .string("d\(i)")]) }
            if i == 15 {
                // Invalidate while deliveries flow: wait for the first one (no deadline: slow machines).
                while state.count == 0 { Thread.sleep(forTimeInterval: 0.005) }
                token.invalidate()
                flag.invalidated = true
            }
        }
        Thread.sleep(forTimeInterval: 0.3)
        queue.sync {}
        #expect(flag.violations == 0)
        #expect(state.count > 0)
    }

    @Test func queueDeliveryBindsToAQueueConfinedRealm() throws {
        let dir = TempDir()
        let (writer, observed) = try open(dir)
        let queue = DispatchQueue(label: "observer")
        let seen = Counter()
        let token = try observed.objects("Dog").filter("age > 3").observe(on: queue) { change in
            switch change {
            case .initial(let r): seen.add("initial \(r.count)")
            case .update(let r, let d, let i, let m):
                // The results belong to a Realm confined to this queue: readable here.
                let names = r.map { $0["name"]?.description ?? "?" }.joined(separator: ",")
                seen.add("update \(r.count) \(d) \(i) \(m) \(names)")
            case .error(let e): seen.add("error \(e)")
            }
        }
        // Polls for each delivery with no deadline (a loaded machine delivers late).
        while seen.count < 1 { Thread.sleep(forTimeInterval: 0.01) }
        try writer.write {
            try writer.create("Dog", ["name": .string("rex"), "age": .int(5)])
            try writer.create("Dog", ["name": .string("pup"), "age": .int(1)])
        }
        while seen.count < 2 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(
            seen.all == ["initial 0", "update 1 [] [0] [] \"rex\""]
                || seen.all == ["initial 0", "update 1 [] [0] [] rex"])
        token.invalidate()
    }

    @Test func realmObserverOnAQueueSeesEachNewVersionThere() throws {
        let dir = TempDir()
        let (writer, observed) = try open(dir)
        let queue = DispatchQueue(label: "observer")
        let seen = Counter()
        let token = observed.observe(on: queue, failure: { seen.add("failure \($0)") }) { notification, realm in
            // The instance handed over is confined to the queue and already at the new version.
            dispatchPrecondition(condition: .onQueue(queue))
            let count = (try? realm.objects("Dog").count).map(String.init) ?? "unreadable"
            seen.add("\(notification.rawValue) \(count) \(realm === observed)")
        }
        try writer.write { try writer.create("Dog", ["name": .string("rex")]) }
        while seen.count < 1 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(seen.all == ["didChange 1 false"])
        token.invalidate()
        try writer.write { try writer.create("Dog", ["name": .string("pup")]) }
        Thread.sleep(forTimeInterval: 0.1)  // a window for a delivery that must not come
        queue.sync {}
        #expect(seen.count == 1)
        // A frozen instance never changes: the failure is reported on the queue, nothing registered.
        let frozen = try observed.freeze()
        let none = frozen.observe(on: queue, failure: { seen.add("failure \($0)") }) { _, _ in seen.add("delivered") }
        queue.sync {}
        #expect(seen.count == 2 && seen.all[1].hasPrefix("failure") && seen.all[1].contains("frozen"))
        none.invalidate()
    }

    @Test func objectNotifications() throws {
        let dir = TempDir()
        let (writer, observed) = try open(dir)
        try writer.write { try writer.create("Dog", ["name": .string("rex"), "age": .int(2)]) }
        observed.refresh()
        let dog = try #require(try observed.objects("Dog").first)
        var events: [String] = []
        let token = dog.observe { change in
            switch change {
            case .change(let o, let props):
                events.append(
                    props.map { "\($0.name): \($0.oldValue!) → \($0.newValue!)" }.joined(separator: "; ")
                        + " (\(o["age"]!))")
            case .deleted: events.append("deleted")
            case .error(let e): events.append("error \(e)")
            }
        }
        let w = try #require(try writer.objects("Dog").first)
        try writer.write {
            try w.setValue(.int(3), forKey: "age")
            try w.setValue(.string("max"), forKey: "name")
        }
        pumpRunLoop { events.count >= 1 }
        #expect(events == ["name: \"rex\" → \"max\"; age: 2 → 3 (3)"] || events.first?.contains("age: 2 → 3") == true)
        try writer.write { try w.setValue(.int(3), forKey: "age") }  // no change: no callback
        try writer.write { try writer.delete(w) }
        pumpRunLoop { events.count >= 2 }
        #expect(events.last == "deleted")
        token.invalidate()
    }

    @Test func listAndLinkingObjectsNotifications() throws {
        let dir = TempDir()
        let (writer, observed) = try open(dir)
        try writer.write {
            try writer.create(
                "Person",
                value: .dictionary([
                    "id": .value(.int(1)), "name": .value(.string("p")),
                    "dogs": .array([.dictionary(["name": .value(.string("a"))])]),
                ]))
        }
        observed.refresh()
        let person = try #require(try observed.objects("Person").first)
        let dogs = try person.list(forKey: "dogs")
        var events: [String] = []
        let token = dogs.observe { change in
            switch change {
            case .initial(let l): events.append("initial \(l.count)")
            case .update(let l, let d, let i, let m): events.append("\(l.count) \(d) \(i) \(m)")
            case .error(let e): events.append("error \(e)")
            }
        }
        observed.refresh()
        let wp = try #require(try writer.objects("Person").first)
        try writer.write {
            try wp.list(forKey: "dogs").append(.dictionary(["name": .value(.string("b"))]))
            try wp.list(forKey: "dogs").move(from: 1, to: 0)
        }
        observed.refresh()
        let a = try #require(try writer.objects("Dog").filter("name == 'a'").first)
        try writer.write { try a.setValue(.int(9), forKey: "age") }
        observed.refresh()
        #expect(events == ["initial 1", "2 [] [0] []", "2 [] [] [1]"])
        // Linking objects: the dog's owners.
        let ownersOf = try #require(try observed.objects("Dog").filter("name == 'a'").first).linkingObjects(
            forKey: "owners")
        var owners: [String] = []
        let t2 = ownersOf.observe { change in
            if case .update(let r, let d, let i, _) = change { owners.append("\(r.count) \(d) \(i)") }
        }
        observed.refresh()
        try writer.write { try wp.list(forKey: "dogs").removeAll() }
        observed.refresh()
        #expect(owners == ["0 [0] []"])
        token.invalidate()
        t2.invalidate()
    }

    @Test func watchLinesFromAnEmptyFile() throws {
        let dir = TempDir()
        let path = dir.path("w.realm")
        let writer = try Realm(path: path, schema: Fixtures.people)
        let lines = Counter()
        let done = DispatchSemaphore(value: 0)
        let control = WatchControl()
        Thread {
            do {
                try watchLines(
                    path: path, className: "Dog", predicate: "age >= 2", sort: [SortDescriptor(keyPath: "name")],
                    maxEvents: 2, control: control
                ) { lines.add($0) }
            } catch {
                lines.add("error \(error)")
            }
            done.signal()
        }.start()
        // Each line before the next commit, with no deadline (a loaded machine watches late).
        while lines.count < 1 { Thread.sleep(forTimeInterval: 0.01) }
        try writer.write {
            try writer.create("Dog", ["name": .string("b"), "age": .int(2)])
            try writer.create("Dog", ["name": .string("z"), "age": .int(1)])
        }
        while lines.count < 2 { Thread.sleep(forTimeInterval: 0.01) }
        try writer.write { try writer.create("Dog", ["name": .string("a"), "age": .int(3)]) }
        done.wait()  // the second update is the last event counted
        #expect(
            lines.all == [
                "{\"event\": \"initial\", \"version\": 1, \"count\": 0}",
                // Beside the positions, the objects by identity (Dog has no primary key: its key).
                "{\"event\": \"update\", \"version\": 2, \"count\": 1, \"deletions\": [], \"insertions\": [0], \"modifications\": [], "
                    + "\"deleted\": [], \"inserted\": [{\"key\": 0}], \"modified\": []}",
                "{\"event\": \"update\", \"version\": 3, \"count\": 2, \"deletions\": [], \"insertions\": [0], \"modifications\": [], "
                    + "\"deleted\": [], \"inserted\": [{\"key\": 2}], \"modified\": []}",
            ])
        // stop() ends a watch that waits for commits.
        // Stopped once it has printed its initial line (the event; before, after a 0.2 s sleep,
        // and it had to end within 0.5 s, which a loaded machine could outlast).
        let started = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        let control2 = WatchControl()
        Thread {
            _ = try? watchLines(
                path: path, className: "Dog", predicate: "", sort: [], maxEvents: nil, control: control2
            ) { _ in
                started.signal()
            }
            stopped.signal()
        }.start()
        started.wait()
        control2.stop()
        stopped.wait()
        _ = control
    }

    /// A delivery that comes while the Realm is in a write transaction waits for it; after
    /// `cancelWrite` it is made. Before, it was dropped, and the change arrived only with the
    /// next commit or an explicit refresh.
    @Test func aDeliveryDuringACancelledWriteIsMadeAfterIt() throws {
        let dir = TempDir()
        let (writer, observed) = try open(dir)
        var updates = 0
        let token = try observed.objects("Dog").observe { change in
            if case .update = change { updates += 1 }
        }
        defer { token.invalidate() }
        pumpRunLoop { observed.notificationHub?.deliveryTimer != nil }
        runRunLoop(for: 0.2)
        try writer.write { try writer.create("Dog", ["name": .string("rex")]) }
        try observed.beginWrite()
        waitUntilComputed(token, upTo: writer.version)
        runRunLoop(for: 0.3)  // the delivery comes, and must wait
        #expect(updates == 0)
        observed.cancelWrite()
        pumpRunLoop { updates == 1 }
    }

    /// A callback that writes moves the Realm on; the observers after it in the same delivery
    /// get the change to the new version, with results that hold it. Before, they got the old
    /// version's keys stamped as the new one's: a deleted object stayed in their results.
    @Test func observersAfterACallbackThatWritesSeeTheNewVersion() throws {
        let dir = TempDir()
        let (writer, observed) = try open(dir)
        try writer.write { for name in ["d1", "d2"] { try writer.create("Dog", ["name": .string(name)]) } }
        observed.refresh()
        func names(_ results: Results) -> String {
            (try? results.keys().map { key in
                (try? observed.object(ofType: "Dog", key: key)?["name"]).flatMap { $0 }?.description ?? "unreadable"
            }.joined(separator: ","))
                ?? "unreadable results"
        }
        let deleter = try observed.objects("Dog").observe { change in
            guard case .update = change, let d2 = try? observed.objects("Dog").filter("name == 'd2'").first else {
                return
            }
            try? observed.write { try observed.delete(d2) }
        }
        var seen: [String] = []
        let watcher = try observed.objects("Dog").observe { change in
            if case .update(let results, _, _, _) = change { seen.append(names(results)) }
        }
        defer {
            deleter.invalidate()
            watcher.invalidate()
        }
        runRunLoop(for: 0.3)
        try writer.write { try writer.create("Dog", ["name": .string("d3")]) }
        pumpRunLoop { seen.contains { !$0.contains("d2") } }
        #expect(!seen.contains { $0.contains("d2") || $0.contains("unreadable") }, "\(seen)")
        #expect(seen.last == "\"d1\",\"d3\"" || seen.last == "d1,d3", "\(seen)")
    }

    /// A Realm confined to a queue delivers its own observers (registered without a queue) on
    /// that queue. Before, they went to the RunLoop of whichever worker thread registered them,
    /// which nothing runs: only `refresh()` delivered.
    @Test func aQueueConfinedRealmDeliversItsObserversOnItsQueue() throws {
        let dir = TempDir()
        let (writer, _) = try open(dir)
        let queue = DispatchQueue(label: "confined")
        let confined = try Realm(
            configuration: .init(fileURL: URL(fileURLWithPath: dir.path("n.realm")), schema: Fixtures.people),
            queue: queue)
        let seen = Counter()
        nonisolated(unsafe) var token: NotificationToken?
        queue.sync {
            token = try? confined.objects("Dog").observe { change in
                dispatchPrecondition(condition: .onQueue(queue))
                switch change {
                case .initial(let r): seen.add("initial \(r.count)")
                case .update(let r, _, let i, _): seen.add("update \(r.count) \(i)")
                case .error(let e): seen.add("error \(e)")
                }
            }
        }
        while seen.count < 1 { Thread.sleep(forTimeInterval: 0.01) }  // no deadline: a loaded machine delivers late
        try writer.write { try writer.create("Dog", ["name": .string("rex")]) }
        while seen.count < 2 { Thread.sleep(forTimeInterval: 0.01) }
        #expect(seen.all == ["initial 0", "update 1 [0]"])
        queue.sync { token?.invalidate() }
    }

    /// `invalidate()` from a thread inside a write transaction, while the token's callback on a
    /// queue waits for that write lock: it returns (the callback is not called again) instead
    /// of waiting for a callback that waits for it.
    @Test func invalidatingInsideAWriteWhileTheCallbackWaitsToWriteDoesNotDeadlock() throws {
        let dir = TempDir()
        let (writer, observed) = try open(dir)
        let queue = DispatchQueue(label: "writing-observer")
        let lockHeld = DispatchSemaphore(value: 0)
        let initial = DispatchSemaphore(value: 0)
        let updating = DispatchSemaphore(value: 0)
        let calls = Counter()
        let token = try observed.objects("Dog").observe(on: queue) { change in
            calls.add("call")
            switch change {
            case .initial: initial.signal()
            case .update(let results, _, _, _):
                updating.signal()
                lockHeld.wait()
                _ = try? results.realm.write { try results.realm.create("Dog", ["name": .string("from the callback")]) }
            case .error: break
            }
        }
        initial.wait()  // no deadlines: a loaded machine delivers late
        try writer.write { try writer.create("Dog", ["name": .string("rex")]) }
        updating.wait()
        let path = dir.path("n.realm")
        let finished = DispatchSemaphore(value: 0)
        Thread {
            guard let holder = try? Realm(path: path, schema: Fixtures.people), (try? holder.beginWrite()) != nil else {
                Issue.record("the lock holder could not begin its write")
                lockHeld.signal()
                finished.signal()
                return
            }
            lockHeld.signal()
            Thread.sleep(forTimeInterval: 0.3)  // the callback now waits for the write lock
            token.invalidate()
            holder.cancelWrite()
            finished.signal()
        }.start()
        finished.wait()  // a deadlock hangs here, where CI's job limit reports it
        queue.sync {}
        #expect(calls.count == 2)
    }

    @Test func notifierThreadStopsWithItsLastRegistration() throws {
        let dir = TempDir()
        let (_, observed) = try open(dir)
        let token = try observed.objects("Dog").observe { _ in }
        #expect(Notifier.isRunning(for: observed.shared))
        token.invalidate()
        // no deadline: it stops late on a loaded machine
        while Notifier.isRunning(for: observed.shared) { Thread.sleep(forTimeInterval: 0.01) }
        #expect(!Notifier.isRunning(for: observed.shared))
    }
}
