import RealmEngine

/// What the writer thread reports about the write it runs (App/EditWriter.swift), delivered to
/// `update` as `ExplorerEvent.write`. Data only, so tests can send them without a thread.
public enum WriteEvent: Sendable, Equatable {
    /// Another writer (a process, or another instance) holds the write lock; the writer thread
    /// keeps trying until it is free or the write is cancelled.
    case waitingForLock
    /// The write transaction is open and `done` of `total` steps are done (a step: an object
    /// written, or recorded for undo).
    case progress(done: Int, total: Int)
    /// The write ended: committed, refused, or cancelled (then nothing was written).
    case finished(WriteOutcome)
}

/// How a write ended.
public enum WriteOutcome: Sendable, Equatable {
    /// Committed.
    case written(WriteReceipt)
    /// Nothing written: why (a schema violation, a lost object, an undo whose objects changed).
    case refused(String)
    /// Nothing written: the staged objects another writer changed or deleted (a batch commit).
    case conflicts([String])
    /// Nothing written: Esc reached the writer before its commit.
    case cancelled
}

/// What a committed write did.
public struct WriteReceipt: Sendable, Equatable {
    /// One line for the status line ("Dog#0.age = 7").
    public var summary: String
    /// How `u` takes the write back (nil: it cannot, e.g. an undo itself or a batch).
    public var undo: UndoRecord?
    /// The object a create made (the cursor moves to it).
    public var created: ObjectKey?
    /// The version the commit made.
    public var version: UInt64

    /// A receipt.
    public init(summary: String, undo: UndoRecord? = nil, created: ObjectKey? = nil, version: UInt64) {
        self.summary = summary
        self.undo = undo
        self.created = created
        self.version = version
    }
}

/// A write handed to the writer thread, as long as it runs (`EditFlow.writing`).
struct WriteStatus {
    /// Where the write is.
    enum Phase: Equatable {
        /// Handed over; no report yet.
        case started
        /// Another writer holds the lock.
        case waitingForLock
        /// Inside the write transaction.
        case writing(done: Int, total: Int)
    }

    var pending: PendingWrite
    /// The editor or form that asked for the write, opened again if it is refused.
    var reopen: ReopenableEdit?
    var phase: Phase = .started
    /// Esc was pressed: the writer was asked to cancel and its answer is awaited.
    var isCancelling = false

    /// The status line while the write runs.
    var text: String {
        if isCancelling { return "cancelling the write…" }
        switch phase {
        case .started: return "writing… (Esc cancels)"
        case .waitingForLock: return "waiting for another writer (Esc cancels)"
        case .writing(let done, let total) where total > 1:
            return "writing… \(min(99, done * 100 / total))% (Esc cancels)"
        case .writing: return "writing… (Esc cancels)"
        }
    }
}

/// Objects a delete removed, with what `u` needs to put them back: their values, and the links
/// and list entries of other objects that pointed at them (with those objects' values right
/// after the delete, so an undo can tell whether anyone changed them since).
public struct DeletedObjects: Sendable, Equatable {
    /// One deleted object.
    public struct Object: Sendable, Equatable {
        /// Its key before the delete.
        public var key: ObjectKey
        /// Its persisted values, in the order of `DeletedObjects.properties`.
        public var values: [Value]
    }

    /// A link or list entry of a surviving object that pointed at a deleted one.
    public struct IncomingLink: Sendable, Equatable {
        public var originClass: String
        public var originKey: ObjectKey
        public var property: String
        /// The position in the list (nil: a to-one link).
        public var index: Int?
        /// The deleted object it pointed at (its old key).
        public var target: ObjectKey
        /// The key in a dictionary of links (nil: a to-one link or a list).
        public var mapKey: String? = nil
    }

    /// An object holding an `IncomingLink`, as it was right after the delete.
    public struct Origin: Sendable, Equatable {
        public var className: String
        public var key: ObjectKey
        public var values: [Value]
    }

    /// Deletes of more objects than this are not recorded (`u` says so): the record holds every
    /// value in memory.
    public static let limit = 100_000

    public var className: String
    /// The class's persisted property names at delete time (an undo refuses a changed schema).
    public var properties: [String]
    public var objects: [Object]
    public var incoming: [IncomingLink]
    public var origins: [Origin]
}
