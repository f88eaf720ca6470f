import Foundation
import Testing
import RealmSwift

@Suite struct AutorefreshTests {
    final class ADog: Object { @Persisted var name = "" }

    @Test func aRealmWithoutObserversPicksUpOtherThreadsCommits() throws {
        let config = try fileConfig([ADog.self])
        defer { removeFolder(of: config) }
        let realm = try Realm(configuration: config)
        #expect(realm.autorefresh)
        let dogs = realm.objects(ADog.self)
        #expect(dogs.count == 0)
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.add(ADog()) }
        }
        #expect(dogs.count == 0)  // a snapshot until the RunLoop turns
        pumpRunLoop { dogs.count >= 1 }
        #expect(dogs.count == 1)  // no refresh(), no observer

        realm.autorefresh = false
        try onOtherThread {
            let r = try Realm(configuration: config)
            try r.write { r.add(ADog()) }
        }
        RunLoop.current.run(until: Date().addingTimeInterval(0.2))  // a window for a refresh that must not come
        #expect(dogs.count == 1)
        realm.refresh()
        #expect(dogs.count == 2)
    }
}
