import RealmEngine

extension ExplorerState {
    /// How long a `+` or `~` mark stays on a row.
    static let markSeconds = 3.0

    /// Applies a table's change set: rows inserted and modified are marked, deleted ones leave,
    /// and the cursor stays on its object — or, when that object was deleted, goes to its
    /// neighbour and the status line says so. The viewport moves only as much as needed.
    mutating func apply(_ change: TableChange) {
        let height = max(1, tableBodyHeight)
        for index in stack.indices {
            guard case .table(var table) = stack[index], ObjectIdentifier(table.rows) == change.table else { continue }
            let oldCursor = table.cursorRow
            let oldTop = table.topRow
            let cursorGone = change.deletions.contains(oldCursor)
            var newCursor = ExplorerState.shifted(oldCursor, change)
            if cursorGone, let key = table.cursorKey {
                if let moved = Self.newPosition(of: key, change, in: table.rows) {
                    newCursor = moved
                } else if index == stack.count - 1 && !table.base.isInvalidated {
                    message = Message(text: Self.whyGone(key, from: table, in: realm), isError: false)
                }
            }
            // Marks are set only near what can be on screen next (the old viewport and the
            // cursor's), so a commit of a million rows costs a screen of reads, not a million.
            let near = [(oldTop - height)..<(oldTop + 2 * height), (newCursor - 2 * height)..<(newCursor + 2 * height)]
            let keys = try? table.rows.keysForChange(change, near: near)
            func markModified(_ key: ObjectKey, cells changed: Set<Int>) {
                guard table.marks[key].map({ $0.kind != .inserted || $0.until <= now }) ?? true else { return }
                // Cells still highlighted from an earlier commit stay highlighted with the new ones.
                let earlier = table.marks[key].flatMap { $0.kind == .modified && $0.until > now ? $0.cells : nil } ?? []
                table.marks[key] = RowMark(
                    kind: .modified, until: now + Self.markSeconds, cells: earlier.union(changed))
            }
            for key in keys?.inserted ?? [] {
                // A row that was on screen before is not new: it moved (a sort, a list's order).
                // Marked modified when its values changed, not at all when it only moved.
                if let changed = table.rows.changedProperties(of: key) {
                    if !changed.isEmpty { markModified(key, cells: changed) }
                } else {
                    table.marks[key] = RowMark(kind: .inserted, until: now + Self.markSeconds)
                }
            }
            for key in keys?.modified ?? [] { markModified(key, cells: table.rows.changedProperties(of: key) ?? []) }
            // The viewport stays where it was and moves only if the cursor would leave it
            // (`keepCursorInView`), so rows inserted at the top of the screen are seen.
            table.cursorRow = newCursor
            table.topRow = oldTop
            stack[index] = .table(table)
        }
        keepCursorInView()
    }

    /// Why the object under the cursor left `table`: deleted, or (still in the Realm) no
    /// longer matching the query, or no longer in the list.
    static func whyGone(_ key: ObjectKey, from table: TableScreen, in realm: Realm) -> String {
        guard (try? realm.object(ofType: table.schema.name, key: key)) != nil else {
            return "the object under the cursor was deleted; now on its neighbour"
        }
        return table.query.isEmpty
            ? "the object under the cursor left this list; now on its neighbour"
            : "the object under the cursor no longer matches the query; now on its neighbour"
    }

    /// Where position `index` of the old order is in the new one: moved up by the deletions
    /// before it, down by the insertions up to it (for a deleted index: where its neighbour is).
    static func shifted(_ index: Int, _ change: TableChange) -> Int {
        shifted([index], change)[0]
    }

    /// `shifted` for ascending old positions, in one pass over the change set's sorted
    /// deletions and insertions: O(indices + deletions + insertions).
    static func shifted(_ ascending: [Int], _ change: TableChange) -> [Int] {
        let deletions = change.deletions.sorted()
        let insertions = change.insertions.sorted()
        var deletedBefore = 0
        var insertedUpTo = 0
        return ascending.map { index in
            while deletedBefore < deletions.count && deletions[deletedBefore] < index { deletedBefore += 1 }
            // Insertions are new positions: count those at or before the position reached so
            // far (each one counted pushes the position down by one).
            var position = index - deletedBefore + insertedUpTo
            while insertedUpTo < insertions.count && insertions[insertedUpTo] <= position {
                insertedUpTo += 1
                position += 1
            }
            return max(0, position)
        }
    }

    /// The new position of the object `key` whose old position the change set deleted, if it
    /// is still in the table (it moved).
    static func newPosition(of key: ObjectKey, _ change: TableChange, in rows: TableRows) -> Int? {
        // A few insertions are read where they are; for many, one search of the result's keys
        // (held in memory after a change set) is cheaper than reading each.
        if change.insertions.count <= 256 {
            return change.insertions.first { (try? rows.object(at: $0))?.key == key }
        }
        guard let object = try? rows.results.realm.object(ofType: rows.results.objectSchema.name, key: key) else {
            return nil
        }
        return rows.results.index(of: object)
    }

    /// Before the Realm moves to a newer version: remembers what each screen on the stack shows
    /// (a table's visible rows, a detail's values), so the change can be shown cell by cell and
    /// the detail view can say what a value was. Reads O(window) objects.
    mutating func rememberShownValues() {
        let height = tableBodyHeight
        for index in stack.indices {
            switch stack[index] {
            case .table(let table):
                table.rows.rememberValues(in: table.topRow..<(table.topRow + height))
            case .detail(var detail):
                guard !detail.object.isInvalidated else { continue }
                detail.shownValues = TableRows.values(of: detail.object)
                detail.shownTree = DetailLayout.snapshot(detail.object, realm: realm)
                stack[index] = .detail(detail)
            default: break
            }
        }
    }

    /// After the Realm moved to a new version: a detail view of an object deleted meanwhile says
    /// so instead of showing stale values; one of an object modified marks the properties that
    /// changed and keeps their previous values; a message about an earlier version's data (a
    /// query's count) leaves the status line.
    mutating func noteRefresh() {
        if let shown = message?.version, shown != realm.version { message = nil }
        for index in stack.indices {
            guard case .detail(var detail) = stack[index] else { continue }
            let before = detail.shownValues
            let treeBefore = detail.shownTree
            detail.shownValues = nil
            detail.shownTree = nil
            if detail.object.isInvalidated {
                if detail.deletedInVersion == nil { detail.deletedInVersion = realm.version }
            } else if let before {
                let after = TableRows.values(of: detail.object)
                var changed = false
                for property in after.indices
                where before.indices.contains(property) && !Value.identical(before[property], after[property]) {
                    detail.changes[property] = DetailChange(was: before[property], until: now + Self.markSeconds)
                    changed = true
                }
                if let treeBefore {
                    changed = noteNestedChanges(&detail, before: treeBefore, values: before) || changed
                }
                // The breadcrumb names the object as it is now (its name may be what changed).
                if changed { detail.crumb = (detail.origin.map { $0 + ": " } ?? "") + crumbName(detail.object) }
            }
            stack[index] = .detail(detail)
        }
        keepCursorInView()
    }

    /// Drops the marks whose time is over.
    mutating func expireMarks() {
        for index in stack.indices {
            guard case .table(var table) = stack[index], !table.marks.isEmpty else { continue }
            table.marks = table.marks.filter { $0.value.until > now }
            stack[index] = .table(table)
        }
    }

    /// `p`: pause or resume live updates.
    mutating func togglePause() {
        isPaused.toggle()
        // Paused, the status line itself says so (version and commits behind).
        message = isPaused ? nil : Message(text: "live updates resumed", isError: false)
    }
}

extension TableRows {
    /// The keys a change set inserted and modified, read in the new version. A modification of
    /// an index also deleted is an object that moved: it is among the insertions (its old index
    /// shifted would name another row).
    ///
    /// Only rows whose new position falls in one of `near` are read: O(window) reads, and
    /// O(change set) arithmetic.
    func keysForChange(_ change: TableChange, near: [Range<Int>]) throws -> (
        inserted: [ObjectKey], modified: [ObjectKey]
    ) {
        func isNear(_ position: Int) -> Bool { near.contains { $0.contains(position) } }
        func key(_ position: Int) -> ObjectKey? { (try? object(at: position))?.key }
        let deleted = Set(change.deletions)
        let stayed = change.modifications.filter { !deleted.contains($0) }.sorted()
        let shiftedModifications = ExplorerState.shifted(stayed, change).filter(isNear)
        return (change.insertions.filter(isNear).compactMap(key), shiftedModifications.compactMap(key))
    }
}
