import Foundation

/// The range edits RealmSwift's `List` offers (as `RangeReplaceableCollection` and SwiftUI's
/// offset edits define them), on managed and unmanaged lists alike. Each is a sequence of the
/// list's single-element edits, so a managed list records them in the same write transaction
/// and its observers see the net change.
extension List {
    /// Replaces the elements in `subrange` with `newElements`.
    public func replaceSubrange<C: Collection, R: RangeExpression>(_ subrange: R, with newElements: C)
    where C.Element == Element, R.Bound == Int {
        let range = subrange.relative(to: 0..<count)
        for _ in range { remove(at: range.lowerBound) }
        insert(contentsOf: newElements, at: range.lowerBound)
    }

    /// Removes the first `number` elements (RealmSwift stops when the list has fewer).
    public func removeFirst(_ number: Int = 1) {
        precondition(
            number >= 0 && number <= count, "Can't remove more objects (\(number)) than exist in List (\(count))")
        for _ in 0..<number { remove(at: 0) }
    }

    /// Removes the last `number` elements (RealmSwift stops when the list has fewer).
    public func removeLast(_ number: Int = 1) {
        precondition(
            number >= 0 && number <= count, "Can't remove more objects (\(number)) than exist in List (\(count))")
        for _ in 0..<number { remove(at: count - 1) }
    }

    /// Inserts `newElements` at `index`, in their order.
    public func insert<C: Collection>(contentsOf newElements: C, at index: Int) where C.Element == Element {
        for (offset, element) in newElements.enumerated() { insert(element, at: index + offset) }
    }

    /// Removes the elements in `bounds`.
    public func removeSubrange<R: RangeExpression>(_ bounds: R) where R.Bound == Int {
        let range = bounds.relative(to: 0..<count)
        for _ in range { remove(at: range.lowerBound) }
    }

    /// Removes the elements at `offsets` (SwiftUI's `onDelete`).
    public func remove(atOffsets offsets: IndexSet) {
        for offset in offsets.reversed() { remove(at: offset) }
    }

    /// Moves the elements at `offsets` to before the element at `destination` of the list as
    /// it was (SwiftUI's `onMove`), keeping their order.
    public func move(fromOffsets offsets: IndexSet, toOffset destination: Int) {
        precondition(
            destination >= 0 && destination <= count,
            "destination \(destination) is beyond the list's \(count) elements")
        // The order the list must end in, as positions of the list as it is.
        let positions = Array(0..<count)
        let moved = offsets.map { positions[$0] }
        let stayingBefore = positions[..<destination].filter { !offsets.contains($0) }
        let stayingAfter = positions[destination...].filter { !offsets.contains($0) }
        let target = stayingBefore + moved + stayingAfter
        // Bring each element to its place in turn: `current` follows where each one is now.
        var current = positions
        for (place, position) in target.enumerated() {
            guard let from = current.firstIndex(of: position), from != place else { continue }
            move(from: from, to: place)
            current.insert(current.remove(at: from), at: place)
        }
    }
}
