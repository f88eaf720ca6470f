import RealmEngine

/// The changes this explorer committed that `u` can take back, newest last, and the ones `u`
/// took back that ctrl-r can make again.
///
/// An undo (or redo) is itself a write that first checks nobody changed its objects since
/// (`EditTransaction.undo`); a redo is the undo of the inverse record. A new change empties the
/// redo list (what it would redo was made on top of a different state). A record whose undo
/// was refused (its objects changed since) is dropped, so the changes before it stay reachable.
struct UndoHistory {
    /// At most this many changes are kept (the oldest go first).
    static let limit = 100

    enum Direction { case undo, redo }

    private(set) var undoable: [UndoRecord] = []
    private(set) var redoable: [UndoRecord] = []
    /// Which way the undo write in flight goes: set when `u` or ctrl-r asks for it, used when
    /// it finishes.
    var inFlight: Direction?

    /// A change other than an undo or redo was committed, with its record (nil: it cannot be undone).
    mutating func committed(_ record: UndoRecord?) {
        if let record {
            undoable.append(record)
            if undoable.count > Self.limit { undoable.removeFirst(undoable.count - Self.limit) }
        }
        redoable = []
    }

    /// The undo or redo in flight finished: written (its inverse goes on the other list) or
    /// refused (dropped). Returns its direction.
    @discardableResult
    mutating func finished(written: Bool) -> Direction? {
        guard let direction = inFlight else { return nil }
        inFlight = nil
        switch direction {
        case .undo:
            guard let record = undoable.popLast() else { return direction }
            if written, let inverse = record.inverse { redoable.append(inverse) }
        case .redo:
            guard let record = redoable.popLast() else { return direction }
            if written, let inverse = record.inverse { undoable.append(inverse) }
        }
        return direction
    }

    /// The undo or redo in flight was cancelled before it wrote anything: it stays where it was.
    mutating func cancelled() { inFlight = nil }
}

extension UndoRecord {
    /// The record whose undo makes this change again; nil for a create or a delete (the
    /// object's key changes when it is restored, so they are undone once and not redone).
    var inverse: UndoRecord? {
        switch self {
        case .values(let className, let property, let changes):
            return .values(
                className: className, property: property,
                changes: changes.map { Change(key: $0.key, old: $0.new, new: $0.old) })
        case .list(let className, let key, let property, let before, let after):
            return .list(className: className, key: key, property: property, before: after, after: before)
        case .embeddedRemoved(let entry): return .embeddedAdded(entry)
        case .embeddedAdded(let entry): return .embeddedRemoved(entry)
        case .embeddedGroupRemoved(let group): return .embeddedGroupAdded(group)
        case .embeddedGroupAdded(let group): return .embeddedGroupRemoved(group)
        case .renamed(let className, let key, let property, let from, let to):
            return .renamed(className: className, key: key, property: property, from: to, to: from)
        case .created, .deleted:
            return nil
        }
    }
}
