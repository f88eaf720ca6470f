/// The state of a Realm that leaf views were taken from, shared by the objects that remember
/// where they were found in it (every object an iteration hands out shares one).
///
/// A view into a leaf is only safe to read while the Realm still reads the same state and has
/// not written since: a committed version's pages can be reused once no reader pins it, and a
/// writer frees and reuses its own pages. `isCurrent(in:)` checks exactly that — the Realm's
/// read view is this state (identity, not version number) and `Realm.mutationCount` is
/// unchanged — and the anchor holds the state, so the mapping the views point into stays alive.
///
/// It also keeps each property read, resolved for every leaf: reading one property of many
/// objects (the usual loop) costs one string comparison and an array index per object, instead
/// of hashing the name and copying a leaf view; switching between properties costs a name
/// lookup, never a pass over the leaves again.
final class ReadAnchor {
    /// The Realm whose state this is (held: objects made by iteration rely on it, see
    /// `DynamicObject`).
    let realm: Realm
    /// The Realm's read view the leaves belong to.
    let state: any ReadableVersion
    /// `state`'s identity, what `isCurrent()` compares (no reference counted per check).
    private let stateIdentity: ObjectIdentifier
    /// `Realm.mutationCount` when the leaves were taken.
    let mutation: Int
    let classIndex: Int
    /// Leaves of the class in key order: all of them for an iteration over a committed version,
    /// one after the Realm changed or for an object located by key.
    let leaves: [ClusterView]

    /// The last property read: its name, column, and that column in each leaf.
    private var lastName: String?
    private var lastColumn = -1
    private var lastColumnOfLeaf: [ClusterColumnLayout] = []
    /// Every column read so far, in each leaf (built on its first read): a loop that reads
    /// several properties of each object switches between them without copying a view per leaf.
    private var columnOfLeaf: [[ClusterColumnLayout]?] = []

    /// Anchors `leaves`, taken from the state `realm` reads now.
    init(_ realm: Realm, state: any ReadableVersion, classIndex: Int, leaves: [ClusterView]) {
        self.realm = realm
        self.state = state
        stateIdentity = ObjectIdentifier(state)
        mutation = realm.mutationCount
        self.classIndex = classIndex
        self.leaves = leaves
    }

    /// Whether `realm` still reads this state, unchanged (so views taken from it are valid).
    @inline(__always)
    func isCurrent() -> Bool {
        realm.mutationCount == mutation && realm.reads(stateIdentity)
    }

    /// The value of persisted property `name` at `row` of leaf `leaf` (both valid), or nil when
    /// the class has no such persisted property.
    @inline(__always)
    func value(_ name: String, leaf: Int, row: Int) -> Value? {
        guard lastColumn >= 0 && name == lastName else { return resolveAndRead(name, leaf: leaf, row: row) }
        return lastColumnOfLeaf[leaf].value(row: row)
    }

    private func resolveAndRead(_ name: String, leaf: Int, row: Int) -> Value? {
        guard let c = state.column(classIndex: classIndex, named: name) else { return nil }
        let v = resolveAndRead(column: c, leaf: leaf, row: row)
        lastName = name
        return v
    }

    /// The value of column `c` at `row` of leaf `leaf` (both valid), or nil when `c` is not a
    /// persisted column of the class in this state.
    @inline(__always)
    func value(column c: Int, leaf: Int, row: Int) -> Value? {
        guard c == lastColumn else { return resolveAndRead(column: c, leaf: leaf, row: row) }
        return lastColumnOfLeaf[leaf].value(row: row)
    }

    private func resolveAndRead(column c: Int, leaf: Int, row: Int) -> Value? {
        guard c >= 0, c < state.persistedColumnCount(classIndex: classIndex) else { return nil }
        if c >= columnOfLeaf.count { columnOfLeaf += Array(repeating: nil, count: c + 1 - columnOfLeaf.count) }
        let perLeaf = columnOfLeaf[c] ?? leaves.map { $0.layouts[c] }
        columnOfLeaf[c] = perLeaf
        // A read by column leaves no name: the next read by name resolves it again.
        lastName = nil
        lastColumn = c
        lastColumnOfLeaf = perLeaf
        return perLeaf[leaf].value(row: row)
    }

    /// Row count and packed keys of leaf `leaf` (what walking it needs, copied without
    /// reference counting).
    @inline(__always)
    func keys(ofLeaf leaf: Int) -> (rows: Int, keys: PackedInts) {
        leaves.withUnsafeBufferPointer { ($0[leaf].count, $0[leaf].keyOffsets) }
    }
}
