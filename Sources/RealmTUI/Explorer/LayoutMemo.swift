/// The last layout made and what it was made for, so that the frames drawn (and the key presses
/// handled) for the same key reuse it: a key that moves only the cursor reads no object and
/// formats no value.
///
/// A reference, shared by the copies of the state that hold it (as the live `Results` and
/// objects they show are): a cache is not state.
final class LayoutMemo<Key: Equatable, Layout> {
    private var last: (key: Key, layout: Layout)?
    /// How many layouts were made rather than reused (tests watch it).
    private(set) var made = 0

    /// The layout for `key`: the last one when it was made for an equal key, else `make()`'s,
    /// kept for the next call. A nil key (inside a write transaction, where the data can change
    /// without a new version) is never matched nor kept.
    func layout(for key: Key?, make: () -> Layout) -> Layout {
        if let key, let last, last.key == key { return last.layout }
        let layout = make()
        made += 1
        if let key { last = (key, layout) }
        return layout
    }
}
