/// A one-line text editor (the query bar, the class filter, the command line): text and a
/// cursor between characters, with readline's basic keys.
public struct LineEditor: Sendable, Equatable {
    /// The text.
    public private(set) var text: String
    /// The cursor, in characters from the start (0...text.count).
    public private(set) var cursor: Int

    /// An editor holding `text` with the cursor at its end.
    public init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// An editor holding `text` with the cursor after its first `cursor` characters (clamped).
    public init(_ text: String, cursor: Int) {
        self.text = text
        self.cursor = min(max(0, cursor), text.count)
    }

    /// Replaces the text, cursor at its end.
    public mutating func set(_ newText: String) {
        text = newText
        cursor = newText.count
    }

    /// Applies an editing key; returns false for a key that is not an editing key.
    public mutating func handle(_ key: Key) -> Bool {
        var chars = Array(text)
        switch key {
        case .character(let ch):
            chars.insert(ch, at: cursor)
            cursor += 1
        case .backspace:
            guard cursor > 0 else { return true }
            chars.remove(at: cursor - 1)
            cursor -= 1
        case .delete, .control("d"):
            guard cursor < chars.count else { return true }
            chars.remove(at: cursor)
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(chars.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = chars.count
        case .control("u"):
            chars.removeSubrange(0..<cursor)
            cursor = 0
        case .control("k"): chars.removeSubrange(cursor..<chars.count)
        case .control("w"):
            var start = cursor
            while start > 0 && chars[start - 1] == " " { start -= 1 }
            while start > 0 && chars[start - 1] != " " { start -= 1 }
            chars.removeSubrange(start..<cursor)
            cursor = start
        default: return false
        }
        setText(chars)
        return true
    }

    /// Stores `chars` and keeps the cursor on a character of the stored text: joining them can
    /// merge neighbours (a combining mark typed after a letter, a letter typed before one), so the
    /// cursor becomes the count of the characters before it as they read once joined.
    private mutating func setText(_ chars: [Character]) {
        let position = min(max(0, cursor), chars.count)
        text = String(chars)
        cursor = min(String(chars[..<position]).count, text.count)
    }

    /// Replaces the characters `range` (character offsets) with `replacement`, cursor after it.
    public mutating func replace(_ range: Range<Int>, with replacement: String) {
        var chars = Array(text)
        let lower = min(max(0, range.lowerBound), chars.count)
        let upper = min(max(lower, range.upperBound), chars.count)
        chars.replaceSubrange(lower..<upper, with: Array(replacement))
        cursor = lower + replacement.count
        setText(chars)
    }
}
