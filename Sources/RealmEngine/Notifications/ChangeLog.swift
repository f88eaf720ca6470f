/// The in-file history of what each commit changed (Realm's in-file history, compacted): per
/// commit and class, the inserted, deleted and modified object keys, and for each modified object
/// a bitmask of the changed columns (bit 63 stands for "column 63 or later").
///
/// One `.changeLog` node holds the records of every version that a pinned reader may still need
/// to reach the newest (those newer than the oldest pinned version), at most `maxRecords`; it is
/// rewritten copy-on-write by each commit. A reader that needs a record that was trimmed gets
/// `nil` and treats everything as possibly modified.
struct ChangeRecord: Equatable {
    struct ClassRecord: Equatable {
        var inserted: [Int64] = []
        var deleted: [Int64] = []
        var modified: [Int64: UInt64] = [:]
    }
    var version: UInt64
    var classes: [Int: ClassRecord] = [:]
    /// Everything may have changed (schema change).
    var everything = false
}

enum ChangeLog {
    static let maxRecords = 4096

    /// This commit's record as readers will decode it (for inspecting a transaction's changes):
    /// the one encoding, `encodeRecord`, read back.
    static func record(_ changes: ChangeRecorder, version: UInt64) -> ChangeRecord {
        var node = [UInt8]()
        node.appendLE(UInt32(1))
        node.append(contentsOf: encodeRecord(changes, version: version))
        let decoded = node.withUnsafeBytes { try? decode($0, path: "(this transaction)", ref: 0) }
        return decoded?.first ?? ChangeRecord(version: version)
    }

    /// Writes a new log node with this commit's record, dropping records no pinned reader needs.
    /// The records kept are copied as bytes, never decoded: a record of a bulk update holds
    /// runs that would expand to millions of keys, and a small commit must not pay for them.
    /// The node is written in one pass into the writer's buffer (sizes first).
    static func append(_ changes: ChangeRecorder, to oldRef: UInt64, version: UInt64, writer: TreeWriter,
                       layout: SchemaLayout) throws -> UInt64 {
        let keepAfter = writer.free.reusableUpTo == .max ? version - 1 : writer.free.reusableUpTo
        let mine = RecordPlan(changes)
        var old = UnsafeRawBufferPointer(start: nil, count: 0)
        var kept: [(version: UInt64, range: Range<Int>)] = []
        if oldRef != 0 {
            old = try writer.bytes.node(oldRef, kind: .changeLog)
            kept = try recordRanges(old, path: writer.bytes.path, ref: oldRef).filter { $0.version > keepAfter }
            if kept.count >= maxRecords { kept.removeFirst(kept.count - maxRecords + 1) }
        }
        let size = 4 + kept.reduce(0) { $0 + $1.range.count } + mine.size
        // The old log was committed, not written by this transaction: it is freed once the new
        // one is encoded from it.
        return try writer.write(kind: .changeLog, replacing: oldRef) { out in
            let start = out.count
            out.append(contentsOf: repeatElement(0, count: size))
            out.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                var w = ByteWriter(base + start, capacity: size)
                w.u32(UInt32(kept.count + 1))
                for r in kept { w.bytes(UnsafeRawBufferPointer(rebasing: old[r.range])) }
                mine.write(version: version, everything: changes.everything, to: &w)
            }
        }
    }

    /// The version and byte range of each record of a log node, after checking that the node
    /// holds exactly the records its count says (the same checks `decode` makes on sizes).
    static func recordRanges(_ p: UnsafeRawBufferPointer, path: String, ref: UInt64) throws -> [(version: UInt64, range: Range<Int>)] {
        var cur = ByteCursor(p, path: path, ref: ref)
        let n = Int(try cur.u32())
        guard n <= maxRecords else { throw cur.corrupt("change log has \(n) records") }
        var out: [(version: UInt64, range: Range<Int>)] = []
        out.reserveCapacity(n)
        for _ in 0..<n {
            let start = cur.offset
            let version = try cur.u64()
            _ = try cur.u32()
            let classes = Int(try cur.u32())
            guard classes <= Limits.maxClasses else { throw cur.corrupt("bad change record") }
            for _ in 0..<classes {
                _ = try cur.u32()
                let ni = Int(try cur.u32()), nd = Int(try cur.u32()), nm = Int(try cur.u32())
                _ = try cur.bytes((ni + nd) * 16 + nm * 24)
            }
            out.append((version, start..<cur.offset))
        }
        return out
    }

    /// This commit's record in the stored form (without the node's record count). Keys are
    /// stored as runs — `(first key, count)` for inserted and deleted, `(first key, count, mask)`
    /// for modified — so a bulk insert or update of a million consecutive objects takes a few
    /// bytes, not eight a key. Built from the recorder's runs: a bulk update of a million objects costs
    /// a pass over its keys, not a dictionary of them and a sort.
    static func encodeRecord(_ changes: ChangeRecorder, version: UInt64) -> [UInt8] {
        let plan = RecordPlan(changes)
        var out = [UInt8](repeating: 0, count: plan.size)
        out.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            var w = ByteWriter(base, capacity: plan.size)
            plan.write(version: version, everything: changes.everything, to: &w)
        }
        return out
    }

    /// One record's runs per changed class (by class index) and its encoded size.
    private struct RecordPlan {
        typealias Run = ChangeRecorder.ClassChanges.Run
        var classes: [(index: Int, inserted: [Run], deleted: ChangeRecorder.ClassChanges.KeyRuns, modified: [Run])] = []
        var size = 16

        init(_ changes: ChangeRecorder) {
            for (c, ch) in changes.classes.sorted(by: { $0.key < $1.key }) {
                // The deleted keys are sorted once: as runs (counted, not built: a filtered bulk
                // delete leaves a run per few keys) and to leave them out of the modified ones.
                let gone = ch.deleted
                let inserted = ch.insertedRuns, deleted = ChangeRecorder.ClassChanges.KeyRuns(gone)
                let modified = ch.modifiedRunList(deleted: gone)
                if !inserted.isEmpty || !deleted.isEmpty || !modified.isEmpty {
                    classes.append((c, inserted, deleted, modified))
                    size += 16 + 16 * (inserted.count + deleted.count) + 24 * modified.count
                }
            }
        }

        func write(version: UInt64, everything: Bool, to w: inout ByteWriter) {
            w.u64(version)
            w.u32(everything ? 1 : 0)
            w.u32(UInt32(classes.count))
            for c in classes {
                w.u32(UInt32(c.index))
                w.u32(UInt32(c.inserted.count))
                w.u32(UInt32(c.deleted.count))
                w.u32(UInt32(c.modified.count))
                for run in c.inserted { w.u64(UInt64(bitPattern: run.first)); w.u64(UInt64(bitPattern: run.count)) }
                c.deleted.forEach { first, count in w.u64(UInt64(bitPattern: first)); w.u64(UInt64(bitPattern: count)) }
                for run in c.modified { w.u64(UInt64(bitPattern: run.first)); w.u64(UInt64(bitPattern: run.count)); w.u64(run.mask) }
            }
        }
    }

    static func decode(_ bytes: FileBytes, ref: UInt64) throws -> [ChangeRecord] {
        try decode(try bytes.node(ref, kind: .changeLog), path: bytes.path, ref: ref)
    }

    /// The records of a log node's payload.
    static func decode(_ payload: UnsafeRawBufferPointer, path: String, ref: UInt64) throws -> [ChangeRecord] {
        var cur = ByteCursor(payload, path: path, ref: ref)
        let n = Int(try cur.u32())
        guard n <= maxRecords else { throw cur.corrupt("change log has \(n) records") }
        var out: [ChangeRecord] = []
        for _ in 0..<n {
            var r = ChangeRecord(version: try cur.u64())
            r.everything = try cur.u32() != 0
            let classes = Int(try cur.u32())
            guard classes <= Limits.maxClasses else { throw cur.corrupt("bad change record") }
            for _ in 0..<classes {
                let c = Int(try cur.u32())
                let ni = Int(try cur.u32()), nd = Int(try cur.u32()), nm = Int(try cur.u32())
                guard (ni + nd) * 16 + nm * 24 <= cur.p.count - cur.offset else { throw cur.corrupt("change record overruns its node") }
                var cr = ChangeRecord.ClassRecord()
                // A corrupt run must not expand into billions of keys.
                var budget: Int64 = 1 << 26
                func expand(_ first: Int64, _ count: Int64) throws -> StrideTo<Int64> {
                    guard count > 0, count <= budget, first <= Int64.max - count else { throw cur.corrupt("bad key run") }
                    budget -= count
                    return stride(from: first, to: first + count, by: 1)
                }
                for _ in 0..<ni { let f = try cur.i64(); cr.inserted.append(contentsOf: try expand(f, try cur.i64())) }
                for _ in 0..<nd { let f = try cur.i64(); cr.deleted.append(contentsOf: try expand(f, try cur.i64())) }
                for _ in 0..<nm {
                    let f = try cur.i64()
                    let run = try expand(f, try cur.i64())
                    let mask = try cur.u64()
                    for k in run { cr.modified[k] = mask }
                }
                r.classes[c] = cr
            }
            out.append(r)
        }
        return out
    }

    /// The records from `fromVersion` (exclusive) to `toVersion` (inclusive) as stored in the
    /// snapshot of `toVersion`, or nil when some were trimmed.
    static func records(in snapshot: Snapshot, after fromVersion: UInt64) throws -> [ChangeRecord]? {
        guard snapshot.version > fromVersion else { return [] }
        guard snapshot.changeLogRef != 0 else { return nil }
        let all = try decode(snapshot.bytes, ref: snapshot.changeLogRef)
        let needed = all.filter { $0.version > fromVersion }
        guard needed.count == Int(snapshot.version - fromVersion) else { return nil }
        return needed
    }
}
