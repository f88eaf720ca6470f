extension Results {
    /// Hands out the objects of a `Results` one at a time, each created when it is reached.
    ///
    /// It visits the objects that are in the results when iteration starts, in result order;
    /// the objects are live (they show the Realm's current state). When the Realm changes during
    /// iteration (a write, `refresh()`):
    /// - over a whole class (`realm.objects(name)`, not filtered, sorted or limited), iteration
    ///   goes on in key order in the new state: objects deleted meanwhile are skipped, objects
    ///   created since iteration started are not visited (so a loop that creates objects ends);
    /// - over filtered, sorted or list results, the keys are taken when iteration starts: each
    ///   is visited, and an object deleted meanwhile comes out invalidated.
    ///
    /// An iterator made on a thread other than the Realm's visits nothing.
    ///
    /// Each step hands out a new `DynamicObject`; compare objects with `==` (class and key).
    ///
    /// A whole class over a committed version is walked leaf by leaf in place: no array of
    /// objects or keys is built, and each object's accessor remembers its leaf and row, so
    /// reading its properties needs no lookup.
    public struct Iterator: IteratorProtocol {
        private let realm: Realm
        /// Where a failure to read is recorded (`Results.error`): iteration then ends early.
        private let results: Results
        private let classIndex: Int
        /// Whether this walks a whole class by key (else it hands out `pending` keys).
        private let walksClass: Bool

        /// The leaves being walked and the one at hand (`anchor.leaves[leaf]`: its `rows` rows
        /// and their packed `keys`).
        private var anchor: ReadAnchor?
        /// `anchor`, unmanaged: what the usual step reads (it holds no reference of its own).
        private var anchorRef: Unmanaged<ReadAnchor>?
        private var keys = PackedInts.empty
        private var leaf = 0
        private var row = 0
        private var rows = 0
        /// Whether `anchor` holds every leaf of the class, so the end of its leaves is the end.
        private var anchorIsComplete = false

        /// The next object of the class has a key in `from ..< end` (objects created after
        /// iteration started have keys at or above `end`).
        private var from: Int64 = .min
        private var end: Int64 = .min

        /// Keys to hand out: a query's result, or the rest of a leaf of a write transaction's
        /// state while `pendingStamp` is current (a decoded leaf is not held, see DynamicObject).
        private var pending: [ObjectKey] = []
        private var pendingIndex = 0
        private var pendingStamp: ReadAnchor?
        /// The object handed out last, recycled by `next()` when nobody else holds it.
        private var last: DynamicObject?

        init(_ results: Results) {
            realm = results.realm
            self.results = results
            classIndex = results.classIndex
            walksClass = results.query.isWholeClass
            guard (try? realm.checkThread()) != nil else { return }
            guard walksClass else {
                pending = results.recording([]) { try results.keys() }
                return
            }
            results.error = nil
            let state: any ReadableVersion
            do {
                state = try realm.readable
            } catch {
                results.error = error as? RealmError ?? .invalidInput("\(error)")
                return
            }
            guard state.schema.objectSchemas.indices.contains(classIndex) else { return }
            guard realm.transaction == nil, let views = try? state.leafViews(classIndex: classIndex) else {
                end = (try? state.keyBound(classIndex: classIndex)) ?? .min
                return
            }
            guard let last = views.last(where: { $0.count > 0 }) else { return }
            end = last.key(at: last.count - 1) &+ 1
            let anchor = ReadAnchor(realm, state: state, classIndex: classIndex, leaves: views)
            start(anchor, leaf: 0, row: 0, complete: true)
        }

        /// The next object, or nil at the end.
        ///
        /// The object handed out last is recycled for the next one when nothing but the
        /// iterator references it any more (no strong, weak or unowned reference): no code can
        /// tell, and a loop that keeps nothing makes one object instead of one per step. A
        /// recycled object of a class walk is moved to the next row in place (`rewalk`): no
        /// accessor is made, copied or destroyed, and no reference counted, per step.
        public mutating func next() -> DynamicObject? {
            let step = nextStep()
            if case .end = step {
                last = nil
                return nil
            }
            if var previous = last.take(), isKnownUniquelyReferenced(&previous),
                _getWeakRetainCount(previous) <= 1, _getUnownedRetainCount(previous) <= 1
            {
                switch step {
                case .walked(let key, let anchor, let leaf, let row):
                    previous.accessor.rewalk(key: key, anchor: anchor, leaf: leaf, row: row)
                case .keyed(let key):
                    previous.accessor = ObjectAccessor(realm: realm, classIndex: classIndex, key: key)
                case .end:
                    break
                }
                last = previous
                return previous
            }
            guard let accessor = Self.accessor(step, realm: realm, classIndex: classIndex) else { return nil }
            let made = DynamicObject(consume accessor)
            last = made
            return made
        }

        /// The accessor of the next object, or nil at the end (the typed layer makes its own
        /// objects around it).
        package mutating func nextAccessor() -> ObjectAccessor? {
            Self.accessor(nextStep(), realm: realm, classIndex: classIndex)
        }

        /// Where the next object is: at a row of a leaf of the anchor (`walked`: the anchor is
        /// not retained, the iterator holds it), or only its key, or nowhere (the end).
        private enum Step {
            case walked(ObjectKey, Unmanaged<ReadAnchor>, leaf: Int, row: Int)
            case keyed(ObjectKey)
            case end
        }

        @inline(__always)
        private static func accessor(_ step: Step, realm: Realm, classIndex: Int) -> ObjectAccessor? {
            switch step {
            case .walked(let key, let anchor, let leaf, let row):
                return ObjectAccessor(
                    classIndex: classIndex, key: key, anchor: anchor.takeUnretainedValue(), leaf: leaf, row: row)
            case .keyed(let key):
                return ObjectAccessor(realm: realm, classIndex: classIndex, key: key)
            case .end:
                return nil
            }
        }

        @inline(__always)
        private mutating func nextStep() -> Step {
            guard walksClass else {
                guard pendingIndex < pending.count else { return .end }
                defer { pendingIndex += 1 }
                return .keyed(pending[pendingIndex])
            }
            // The usual step: the next row of the leaf at hand, the Realm unchanged (the anchor
            // is borrowed, not retained).
            if row < rows, let anchorRef, anchorRef._withUnsafeGuaranteedRef({ $0.isCurrent() }) {
                let key = keys[row] &+ Int64(row)
                if key < end {
                    from = key &+ 1
                    defer { row += 1 }
                    return .walked(ObjectKey(key), anchorRef, leaf: leaf, row: row)
                }
            }
            return walk()
        }

        /// `next()` of a class walk past the usual step: the next leaf, or the next key in the
        /// Realm's current state after it changed, or the end.
        private mutating func walk() -> Step {
            while from < end {
                if let anchor, anchor.isCurrent() {
                    if row < rows {
                        let key = keys[row] &+ Int64(row)
                        guard key < end else { break }
                        from = key &+ 1
                        defer { row += 1 }
                        return .walked(ObjectKey(key), Unmanaged.passUnretained(anchor), leaf: leaf, row: row)
                    }
                    if leaf + 1 < anchor.leaves.count {
                        start(anchor, leaf: leaf + 1, row: 0, complete: anchorIsComplete)
                        continue
                    }
                    if anchorIsComplete { break }
                } else if let pendingStamp, pendingIndex < pending.count, pendingStamp.isCurrent() {
                    let key = pending[pendingIndex]
                    pendingIndex += 1
                    from = key.rawValue &+ 1
                    return .keyed(key)
                }
                // The Realm changed, or the leaf at hand is done: find the next key in its state now.
                guard seek() else { break }
            }
            finish()
            return .end
        }

        private mutating func start(_ anchor: ReadAnchor, leaf: Int, row: Int, complete: Bool) {
            self.anchor = anchor
            anchorRef = Unmanaged.passUnretained(anchor)
            (rows, keys) = anchor.keys(ofLeaf: leaf)
            self.leaf = leaf
            self.row = row
            anchorIsComplete = complete
        }

        /// Positions at the first object with a key in `from ..< end` in the Realm's current
        /// state; false when there is none (or the state cannot be read).
        private mutating func seek() -> Bool {
            anchor = nil
            anchorRef = nil
            rows = 0
            pendingStamp = nil
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            let state: any ReadableVersion
            let found: SoughtObjects
            do {
                state = try realm.readable
                found = try state.seekObjects(classIndex: classIndex, from: from, before: end)
            } catch {
                results.error = error as? RealmError ?? .invalidInput("\(error)")
                return false
            }
            switch found {
            case .none:
                return false
            case .leaf(let cluster, let first):
                let anchor = ReadAnchor(
                    realm, state: state, classIndex: classIndex,
                    leaves: realm.transaction == nil ? cluster.views : [])
                if !anchor.leaves.isEmpty {
                    start(anchor, leaf: 0, row: first, complete: false)
                    return true
                }
                for r in first..<cluster.count {
                    let key = cluster.key(at: r)
                    guard key < end else { break }
                    pending.append(ObjectKey(key))
                }
                pendingStamp = anchor
            case .keys(let keys):
                pending = keys
                pendingStamp = ReadAnchor(realm, state: state, classIndex: classIndex, leaves: [])
            }
            return true
        }

        private mutating func finish() {
            from = end
            anchorRef = nil
            rows = 0
            anchor = nil
            pendingStamp = nil
            pending = []
        }
    }
}

extension ClusterAccess {
    /// The leaf as a one-element list of views, or empty for a decoded leaf.
    fileprivate var views: [ClusterView] {
        if case .view(let v) = self { return [v] }
        return []
    }
}
