/// The in-file history of what each commit changed (Realm's in-file history, compacted): per
/// commit and class, the inserted, deleted and modified object keys, and for each modified object
/// a bitmask of the changed columns (bit 63 stands for "column 63 or later").
///
/// The log keeps the records of every version that a pinned reader may still need to reach the
/// newest (those newer than the oldest pinned version), at most `maxRecords`. A reader that
/// needs a record that was trimmed gets `nil` and treats everything as possibly modified.
///
/// ```
/// root  (.changeLog)  count u32 | count records (the newest) | optional trailer:
///                     "CLCHUNKS" u64 | n u32 | n × (first version u64 | last version u64 |
///                     record count u64 | ref u64), oldest first
/// chunk (.changeLog)  count u32 | count records — sealed, never rewritten
/// ```
/// A commit rewrites only the root: its tail of recent records (at most `sealBytes` before this
/// commit's record) and 32 bytes per chunk. When the tail would outgrow `sealBytes`, it is
/// written once as a chunk and the root starts a new tail; chunks no reader needs are freed
/// whole. So a small commit writes the same few kilobytes however many versions a reader
/// holds (the whole log was rewritten by every commit before: 4,096 records, ~230 KB).
///
/// A root without a trailer is the older form (one node with every record), still read; the
/// records of a root read as before by a program that does not know the trailer, so that it
/// sees only the newest records (and "everything may have changed" for older ones). A program
/// that does not know the trailer must not *write*: it would drop the chunks without freeing
/// them. Write format 3 (`FileHeader.writeFormat`) keeps it to read-only.
package struct ChangeRecord: Equatable {
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

    /// Bytes of recent records the root keeps before they are sealed into a chunk.
    static let sealBytes = 4 << 10

    static let trailerMarker: UInt64 = 0x534B_4E55_4843_4C43  // "CLCHUNKS" little-endian

    /// A sealed chunk as the root's trailer lists it.
    struct Chunk: Equatable {
        var first: UInt64
        var last: UInt64
        var records: Int
        var ref: UInt64
    }

    /// Writes a new root with this commit's record, dropping records and chunks no pinned reader
    /// needs and sealing the tail into a chunk when it is full. The records kept are copied as
    /// bytes, never decoded: a record of a bulk update holds runs that would expand to millions
    /// of keys, and a small commit must not pay for them. The root is written in one pass into
    /// the writer's buffer (sizes first).
    static func append(
        _ changes: ChangeRecorder, to oldRef: UInt64, version: UInt64, writer: TreeWriter,
        layout: SchemaLayout
    ) throws -> UInt64 {
        let keepAfter = writer.free.reusableUpTo == .max ? version - 1 : writer.free.reusableUpTo
        let mine = RecordPlan(changes)
        var old = UnsafeRawBufferPointer(start: nil, count: 0)
        var kept: [(version: UInt64, range: Range<Int>)] = []
        var chunks: [Chunk] = []
        if oldRef != 0 {
            old = try writer.bytes.node(oldRef, kind: .changeLog)
            let root = try parseRoot(old, path: writer.bytes.path, ref: oldRef)
            kept = root.tail.filter { $0.version > keepAfter }
            chunks = root.chunks
        }
        // Whole chunks no reader needs, and the oldest beyond `maxRecords`, are freed (a reader
        // that needed them gets nil: everything may have changed).
        var total = chunks.reduce(0) { $0 + $1.records } + kept.count + 1
        while let c = chunks.first, c.last <= keepAfter || total > maxRecords {
            try writer.release(c.ref)
            total -= c.records
            chunks.removeFirst()
        }
        if total > maxRecords { kept.removeFirst(min(kept.count, total - maxRecords)) }
        // A full tail is written once, as a chunk; the root starts again from this record.
        let tailBytes = kept.reduce(0) { $0 + $1.range.count }
        if !kept.isEmpty, tailBytes + mine.size > sealBytes {
            var payload = [UInt8]()
            payload.reserveCapacity(4 + tailBytes)
            payload.appendLE(UInt32(kept.count))
            for r in kept { payload.append(contentsOf: UnsafeRawBufferPointer(rebasing: old[r.range])) }
            writer.free.placeApart = true
            defer { writer.free.placeApart = false }
            let ref = try writer.write(kind: .changeLog, payload: payload)
            chunks.append(
                Chunk(first: kept[0].version, last: kept[kept.count - 1].version, records: kept.count, ref: ref))
            kept = []
            // The write may have moved the mapping: read the old root again.
            old = try writer.bytes.node(oldRef, kind: .changeLog)
        }
        let trailer = chunks.isEmpty ? 0 : 12 + 32 * chunks.count
        let size = 4 + kept.reduce(0) { $0 + $1.range.count } + mine.size + trailer
        // The old root was committed, not written by this transaction: it is freed once the new
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
                if !chunks.isEmpty {
                    w.u64(trailerMarker)
                    w.u32(UInt32(chunks.count))
                    for c in chunks {
                        w.u64(c.first)
                        w.u64(c.last)
                        w.u64(UInt64(c.records))
                        w.u64(c.ref)
                    }
                }
            }
        }
    }

    /// A root's tail records and its chunks (none for a root of the older form), checked: the
    /// chunks in order of version, older than the tail, within `maxRecords` in all.
    static func parseRoot(_ p: UnsafeRawBufferPointer, path: String, ref: UInt64) throws
        -> (tail: [(version: UInt64, range: Range<Int>)], chunks: [Chunk])
    {
        let tail = try recordRanges(p, path: path, ref: ref)
        let end = tail.last?.range.upperBound ?? 4
        var cur = ByteCursor(p, path: path, ref: ref)
        _ = try cur.bytes(end)
        guard p.count - end >= 12, try cur.u64() == trailerMarker else { return (tail, []) }
        let n = Int(try cur.u32())
        guard n <= maxRecords, n * 32 <= p.count - cur.offset else {
            throw cur.corrupt("change log chunk list overruns its node")
        }
        var chunks: [Chunk] = []
        chunks.reserveCapacity(n)
        var total = tail.count
        for _ in 0..<n {
            let c = Chunk(
                first: try cur.u64(), last: try cur.u64(), records: Int(clamping: try cur.u64()), ref: try cur.u64())
            total += c.records
            guard c.first <= c.last, c.records > 0, total <= maxRecords, c.ref != 0,
                chunks.last.map({ $0.last < c.first }) ?? true
            else { throw cur.corrupt("bad change log chunk list") }
            chunks.append(c)
        }
        if let last = chunks.last, let first = tail.first, last.last >= first.version {
            throw cur.corrupt("change log chunks overlap its newest records")
        }
        return (tail, chunks)
    }

    /// The refs of a root's chunks (for `check`, which visits every node).
    static func chunkRefs(_ bytes: FileBytes, ref: UInt64) throws -> [UInt64] {
        try parseRoot(try bytes.node(ref, kind: .changeLog), path: bytes.path, ref: ref).chunks.map(\.ref)
    }

    /// The version and byte range of each record of a log node, after checking that the node
    /// holds exactly the records its count says (the same checks `decode` makes on sizes).
    static func recordRanges(_ p: UnsafeRawBufferPointer, path: String, ref: UInt64) throws -> [(
        version: UInt64, range: Range<Int>
    )] {
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
                let ni = Int(try cur.u32())
                let nd = Int(try cur.u32())
                let nm = Int(try cur.u32())
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
                let inserted = ch.insertedRuns
                let deleted = ChangeRecorder.ClassChanges.KeyRuns(gone)
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
                for run in c.inserted {
                    w.u64(UInt64(bitPattern: run.first))
                    w.u64(UInt64(bitPattern: run.count))
                }
                c.deleted.forEach { first, count in
                    w.u64(UInt64(bitPattern: first))
                    w.u64(UInt64(bitPattern: count))
                }
                for run in c.modified {
                    w.u64(UInt64(bitPattern: run.first))
                    w.u64(UInt64(bitPattern: run.count))
                    w.u64(run.mask)
                }
            }
        }
    }

    /// Every record of the log whose root is at `ref`, oldest first: its chunks', then its own.
    static func decode(_ bytes: FileBytes, ref: UInt64) throws -> [ChangeRecord] {
        try decode(bytes, ref: ref, after: 0)
    }

    /// The records newer than `version` (chunks older than that are not read).
    static func decode(_ bytes: FileBytes, ref: UInt64, after version: UInt64) throws -> [ChangeRecord] {
        let root = try bytes.node(ref, kind: .changeLog)
        let chunks = try parseRoot(root, path: bytes.path, ref: ref).chunks
        var out: [ChangeRecord] = []
        for c in chunks where c.last > version {
            let records = try decode(try bytes.node(c.ref, kind: .changeLog), path: bytes.path, ref: c.ref)
            guard records.count == c.records, records.first?.version == c.first, records.last?.version == c.last else {
                throw RealmError.corruptFile(
                    path: bytes.path, offset: c.ref, reason: "change log chunk does not hold the records its list says")
            }
            out += records
        }
        return out + (try decode(root, path: bytes.path, ref: ref))
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
                let ni = Int(try cur.u32())
                let nd = Int(try cur.u32())
                let nm = Int(try cur.u32())
                guard (ni + nd) * 16 + nm * 24 <= cur.p.count - cur.offset else {
                    throw cur.corrupt("change record overruns its node")
                }
                var cr = ChangeRecord.ClassRecord()
                // A corrupt run must not expand into billions of keys.
                var budget: Int64 = 1 << 26
                func expand(_ first: Int64, _ count: Int64) throws -> StrideTo<Int64> {
                    guard count > 0, count <= budget, first <= Int64.max - count else {
                        throw cur.corrupt("bad key run")
                    }
                    budget -= count
                    return stride(from: first, to: first + count, by: 1)
                }
                for _ in 0..<ni {
                    let f = try cur.i64()
                    cr.inserted.append(contentsOf: try expand(f, try cur.i64()))
                }
                for _ in 0..<nd {
                    let f = try cur.i64()
                    cr.deleted.append(contentsOf: try expand(f, try cur.i64()))
                }
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
        let all = try decode(snapshot.bytes, ref: snapshot.changeLogRef, after: fromVersion)
        let needed = all.filter { $0.version > fromVersion }
        guard needed.count == Int(snapshot.version - fromVersion) else { return nil }
        return needed
    }
}

extension Snapshot {
    /// The change records kept in this version's change log (`ChangeLog.records`): the
    /// notifier's incremental change sets read them.
    package func changeRecords(after: UInt64) throws -> [ChangeRecord]? {
        try ChangeLog.records(in: self, after: after)
    }
}
