/// Every limit of the engine in one place, each with its reason (SQLite's `sqliteLimit.h`).
public enum Limits {
    /// Class and property names: 1–63 bytes of UTF-8 (Realm's limit; names are stored with a
    /// one-byte length and must fit in a small fixed slot of the schema).
    public static let maxNameBytes = 63
    /// A String or Data value: at most 16 MB (Realm's limit; keeps one value inside one node).
    public static let maxValueBytes = 16 * 1024 * 1024
    /// Nesting depth of a query (parentheses, NOT, SUBQUERY): deeper input is an error rather than
    /// a stack overflow in the recursive-descent parser.
    public static let maxQueryDepth = 200
    /// Reader slots in the lock file: the number of snapshots that can be pinned at once across
    /// all processes. A dead process's slots are reclaimed by the next writer.
    public static let readerSlots = 512
    /// Objects in one cluster leaf. Large enough for columnar scans to run over long runs of
    /// packed values, small enough that rewriting a leaf on a one-object change stays cheap.
    public static let clusterRows = 256
    /// Children of one inner node of a B+tree.
    public static let innerFanout = 128
    /// Search-index entries in one index leaf.
    public static let indexLeafEntries = 512
    /// Classes in one file.
    public static let maxClasses = 4096
    /// Properties in one class.
    public static let maxProperties = 1024
    /// A string or data value past this many bytes, or a list or dictionary past `bigListElements` elements,
    /// is *big*: writing it makes the writer measure the leaf it lands in, which then splits
    /// rather than grow past a few MB (`TreeWriter.needsSplit`). Smaller values never need it.
    static let bigValueBytes = 4096
    /// See `bigValueBytes`.
    static let bigListElements = 256
    /// A cluster leaf holding a big value splits once its encoding passes this size.
    static let bigLeafBytes = 4 << 20
}

extension Value {
    /// Whether writing this value asks for a size check of its leaf (`Limits.bigValueBytes`).
    var isBig: Bool {
        switch self {
        case .string(let text): text.utf8.count > Limits.bigValueBytes
        case .data(let bytes): bytes.count > Limits.bigValueBytes
        case .list(let elements): elements.count > Limits.bigListElements
        case .map(let entries): entries.count > Limits.bigListElements
        default: false
        }
    }
}
