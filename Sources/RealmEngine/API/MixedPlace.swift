/// Where a list or dictionary nested in a Mixed value is, followed across changes: the path of
/// steps from the property's value to it, where a step into a list keeps to its *element*, not
/// to its position.
///
/// Realm Core gives every element of a Mixed list that holds a collection a stable key (a random
/// salt kept next to the element, `ArrayMixed`'s key array; `Lst<Mixed>::find_key`), and a
/// nested collection's accessor finds its element again by that key: an insertion or removal
/// before it leaves the accessor on its element, and removing the element itself makes the
/// accessor stale. This engine stores a Mixed value whole (`MixedCodec`) with no such key, so a
/// place remembers, for each step into a list, the list as it last saw it and the position of
/// its element there, and finds the element again in the list as it is now:
/// - elements are matched old to new by value, occurrence by occurrence (the k-th `[1, 2]` of
///   the old list is the k-th of the new one), so insertions, removals and moves around it
///   keep it, and so does a move of the element itself;
/// - an element no longer found by value changed inside (a change through another accessor of
///   it) or was removed: it is the element that took its place between the same matched
///   neighbours, when exactly as many elements were removed as inserted there and that one is
///   a collection of the same kind; otherwise it is gone.
///
/// A gone place stays gone (as a stale key of Realm Core never comes back). Two differences
/// with a stored key remain, both where values alone cannot tell: of several identical nested
/// collections the k-th stays the k-th (an identical copy inserted before it takes its place),
/// and replacing the element with another collection of the same kind keeps the place (Realm
/// Core would make it stale).
///
/// A place is not thread-safe: each accessor keeps its own (`copy()` for another thread).
public final class MixedPlace {
    private struct Step {
        var element: MixedPathElement
        /// For a step into a list: the list when the place last found its element (nil: not
        /// known, the position is taken as it is on the first look).
        var container: [Value]?
    }

    private var steps: [Step]
    private var gone = false

    /// A place at `path` as it is now (positions taken as they are on the first look).
    public init(path: [MixedPathElement] = []) {
        steps = path.map { Step(element: $0, container: nil) }
    }

    private init(steps: [Step], gone: Bool) {
        self.steps = steps
        self.gone = gone
    }

    /// The path to the collection as last found (positions may have changed since; `resolve`
    /// brings them up to date).
    public var path: [MixedPathElement] { steps.map(\.element) }

    /// An independent copy (for another accessor or another thread).
    public func copy() -> MixedPlace { MixedPlace(steps: steps, gone: gone) }

    /// The place one step deeper: `step` of the collection found at this place; for a step
    /// into a list, `list` is that list as just read (its element is followed from there).
    public func child(_ step: MixedPathElement, in list: [Value]? = nil) -> MixedPlace {
        MixedPlace(steps: steps + [Step(element: step, container: list)], gone: gone)
    }

    /// Records `value` (the property's value just written through this place, the positions
    /// unchanged) as the last look, so the next `resolve` starts from it.
    public func record(_ value: Value) {
        if gone { return }
        var current = value
        for n in steps.indices {
            switch (steps[n].element, current) {
            case (.key(let key), .map(let entries)):
                guard let inner = entries[key] else { return }
                current = inner
            case (.index(let index), .list(let items)) where items.indices.contains(index):
                steps[n].container = items
                current = items[index]
            default:
                return
            }
        }
    }

    /// The value at this place inside `value` (the property's value now), following each
    /// list element to where it is now; nil when the place leads nowhere (its element was
    /// removed, or a key is missing). Positions found are remembered for the next look.
    public func resolve(in value: Value) -> Value? {
        if gone { return nil }
        var current = value
        for n in steps.indices {
            switch (steps[n].element, current) {
            case (.key(let key), .map(let entries)):
                guard let inner = entries[key] else { return nil }
                current = inner
            case (.index(let index), .list(let items)):
                var position: Int? = index
                if let old = steps[n].container, old.indices.contains(index) {
                    position = Self.follow(index, from: old, to: items)
                }
                guard let found = position, items.indices.contains(found) else {
                    gone = true
                    return nil
                }
                steps[n] = Step(element: .index(found), container: items)
                current = items[found]
            default:
                return nil
            }
        }
        return current
    }

    /// Where element `index` of `old` is in `new` (see the type's comment), or nil when gone.
    static func follow(_ index: Int, from old: [Value], to new: [Value]) -> Int? {
        if Value.identical(old, new) { return index }
        let oldToNew = matches(old, new)
        if let found = oldToNew[index] { return found }
        // Not found by value: the element between the same matched neighbours, if it replaced
        // this one one-for-one.
        let before = (0..<index).last(where: { oldToNew[$0] != nil })
        let after = (index + 1..<old.count).first(where: { oldToNew[$0] != nil })
        let newLow = before.flatMap { oldToNew[$0] }.map { $0 + 1 } ?? 0
        let newHigh = after.flatMap { oldToNew[$0] } ?? new.count
        guard newLow <= newHigh else { return nil }
        let matchedNew = Set(oldToNew.compactMap { $0 })
        let removed = ((before.map { $0 + 1 } ?? 0)..<(after ?? old.count)).filter { oldToNew[$0] == nil }
        let inserted = (newLow..<newHigh).filter { !matchedNew.contains($0) }
        guard removed.count == inserted.count, let rank = removed.firstIndex(of: index) else { return nil }
        let candidate = inserted[rank]
        switch (old[index], new[candidate]) {
        case (.list, .list), (.map, .map): return candidate
        default: return nil
        }
    }

    /// For each element of `old`, its position in `new` when an equal value is there: the k-th
    /// occurrence of a value in `old` is its k-th occurrence in `new`.
    private static func matches(_ old: [Value], _ new: [Value]) -> [Int?] {
        var positions: [Value: [Int]] = [:]
        for (j, value) in new.enumerated() { positions[value, default: []].append(j) }
        var seen: [Value: Int] = [:]
        return old.map { value in
            let k = seen[value, default: 0]
            seen[value] = k + 1
            guard let all = positions[value], k < all.count else { return nil }
            return all[k]
        }
    }
}
