import Foundation
import Testing
@testable import RealmEngine

/// The process-wide registry of open files keeps an entry only while an instance has the file
/// open: a process that opens many distinct files or in-memory identifiers one after another
/// (a server, the explorer's fuzzer) does not grow it for good.
@Suite struct SharedFileRegistryTests {
    @Test func closedFilesLeaveNoEntryBehind() throws {
        let schema = Schema([ObjectSchema(name: "Item", properties: [Property(name: "n", type: .int)])])
        let prefix = "registry-\(UUID().uuidString)"
        for index in 0..<50 {
            let realm = try Realm(configuration: .init(inMemoryIdentifier: "\(prefix)-\(index)", schema: schema))
            try realm.write { try realm.create("Item", ["n": .int(Int64(index))]) }
        }
        let dir = TempDir()
        for index in 0..<10 {
            let realm = try Realm(
                configuration: .init(
                    fileURL: URL(fileURLWithPath: dir.path("\(prefix)-\(index).realm")), schema: schema))
            #expect(try realm.objects("Item").checkedCount() == 0)
        }
        // Each new open drops the entries of the files closed before it; only the last may remain.
        let left = SharedFile.registeredKeys.filter { $0.contains(prefix) }
        #expect(left.count <= 1, "\(left.count) entries of closed files: \(left.prefix(3))")
        let open = try Realm(configuration: .init(inMemoryIdentifier: "\(prefix)-open", schema: schema))
        #expect(SharedFile.registeredKeys.contains("memory:\(prefix)-open"))
        #expect(SharedFile.registeredKeys.filter { $0.contains(prefix) } == ["memory:\(prefix)-open"])
        _ = open
    }
}
