import Testing
@testable import RealmEngine

/// The change recorder's bulk paths must give the change log exactly what recording one object
/// at a time gives.
@Suite struct ChangeRecorderTests {
    /// Records the same history twice: once with the bulk calls, once object by object.
    private func both(_ body: (inout ChangeRecorder, Bool) -> Void) -> (bulk: ChangeRecord, single: ChangeRecord) {
        var bulk = ChangeRecorder()
        var single = ChangeRecorder()
        body(&bulk, true)
        body(&single, false)
        #expect(ChangeLog.encodeRecord(bulk, version: 2) == ChangeLog.encodeRecord(single, version: 2))
        return (ChangeLog.record(bulk, version: 2), ChangeLog.record(single, version: 2))
    }

    private func modify(_ r: inout ChangeRecorder, _ bulk: Bool, _ keys: [Int64], column: Int) {
        if bulk { r.modify(0, keys: keys, column: column) } else { for k in keys { r.modify(0, k, column: column) } }
    }

    private func delete(_ r: inout ChangeRecorder, _ bulk: Bool, _ keys: [Int64]) {
        if bulk { r.delete(0, keys: keys) } else { for k in keys { r.delete(0, k) } }
    }

    /// The stored record, read back: insert ranges split at re-deleted keys, deletions of old
    /// objects in key order, masks merged per key, objects modified then deleted left out, and
    /// every class with changes.
    @Test func theEncodedRecordReadsBackForInsertsDeletesAndSeveralClasses() throws {
        var r = ChangeRecorder()
        for k: Int64 in 10..<40 { r.insert(0, k) }
        for k: Int64 in [10, 17, 18, 39, 25] { r.delete(0, k) }  // re-deleted new objects
        r.delete(0, keys: [3, 1, 2, 7])  // old objects, out of order
        r.modify(0, keys: [0, 4, 5, 6, 8], column: 2)
        r.delete(0, 5)  // modified, then deleted
        r.modify(2, keys: Array(100..<200), column: 0)
        r.modify(2, 150, column: 9)
        r.insert(1, 7)
        let record = ChangeLog.record(r, version: 2)
        #expect(record.version == 2 && !record.everything)
        let c0 = try #require(record.classes[0])
        #expect(c0.inserted == Array(11..<17) + Array(19..<25) + Array(26..<39))
        #expect(c0.deleted == [1, 2, 3, 5, 7])
        #expect(c0.modified == [0: 0b100, 4: 0b100, 6: 0b100, 8: 0b100])
        #expect(record.classes[1]?.inserted == [7])
        let c2 = try #require(record.classes[2])
        #expect(c2.modified.count == 100)
        #expect(c2.modified[150] == 0b10_0000_0001)
        #expect(c2.modified[151] == 1)
        var all = ChangeRecorder()
        all.everything = true
        #expect(ChangeLog.record(all, version: 3).everything)
    }

    @Test func bulkModificationsMergeMasksAndSkipNewObjects() {
        let (bulk, single) = both { r, isBulk in
            for k: Int64 in 100..<110 { r.insert(0, k) }
            modify(&r, isBulk, Array(0..<120), column: 1)
            modify(&r, isBulk, [5, 7, 105], column: 3)
            r.modify(0, 7, column: 70)
        }
        #expect(bulk == single)
        let record = bulk.classes[0]
        #expect(record?.modified.count == 110)
        #expect(record?.modified[5] == 0b1010)
        #expect(record?.modified[7] == 0b1010 | UInt64(1) << 63)
        #expect(record?.modified[105] == nil)
        #expect(record?.inserted == Array(100..<110))
    }

    @Test func deletedObjectsLeaveTheModifiedSet() {
        let (bulk, single) = both { r, isBulk in
            for k: Int64 in 50..<60 { r.insert(0, k) }
            modify(&r, isBulk, Array(0..<40), column: 2)
            r.modify(0, 41, column: 0)
            delete(&r, isBulk, [3, 4, 41, 52, 53])
            delete(&r, isBulk, [1])
        }
        #expect(bulk == single)
        let record = bulk.classes[0]
        #expect(record?.deleted == [1, 3, 4, 41])
        #expect(record?.modified.count == 37)
        #expect(record?.modified[3] == nil && record?.modified[41] == nil && record?.modified[0] == 0b100)
        #expect(record?.inserted == [50, 51] + Array(54..<60))
    }

    @Test func nothingRecordedWhenEveryModifiedObjectIsNew() {
        var r = ChangeRecorder()
        for k: Int64 in 0..<10 { r.insert(0, k) }
        r.modify(0, keys: Array(0..<10), column: 1)
        r.modify(0, keys: [], column: 1)
        #expect(ChangeLog.record(r, version: 1).classes[0]?.modified.isEmpty == true)
    }
}
