/// The color pairs of an ncurses screen, allocated lazily: the first cell drawn with a given
/// foreground and background gets the next free pair number, later cells reuse it.
///
/// Pair 0 is the terminal's default colours and is never allocated. When the terminal runs out
/// of pairs (8-colour terminals have 64, fewer than the 81 combinations), further combinations
/// fall back to pair 0: the text still shows, in default colours, with its attributes.
struct ColorPairs {
    /// How many pairs the terminal has (`COLOR_PAIRS`), pair 0 included.
    let limit: Int
    /// Whether the terminal's own default colours can be used (`use_default_colors` worked);
    /// otherwise `.standard` means white on black.
    let hasDefaultColors: Bool
    private var pairs: [Key: Int16] = [:]
    private var next: Int16 = 1

    private struct Key: Hashable {
        var foreground: TerminalColor
        var background: TerminalColor
    }

    /// An empty table for a terminal with `limit` pairs.
    init(limit: Int, hasDefaultColors: Bool) {
        self.limit = max(0, min(limit, Int(Int16.max)))
        self.hasDefaultColors = hasDefaultColors
    }

    /// The number of pairs allocated so far.
    var count: Int { pairs.count }

    /// The pair for a foreground and background, calling `initPair(pair, fg, bg)` (ncurses'
    /// `init_pair`, which returns 0 on success) the first time a combination is seen.
    mutating func pair(
        foreground: TerminalColor, background: TerminalColor,
        initPair: (Int16, Int16, Int16) -> Int32
    ) -> Int16 {
        if foreground == .standard && background == .standard && hasDefaultColors { return 0 }
        let key = Key(foreground: foreground, background: background)
        if let known = pairs[key] { return known }
        guard Int(next) < limit else { return 0 }
        let number = next
        guard
            initPair(
                number, cursesColor(foreground, isBackground: false),
                cursesColor(background, isBackground: true)) == 0
        else { return 0 }
        next += 1
        pairs[key] = number
        return number
    }

    /// The ncurses colour number: 0…7 as `COLOR_BLACK`…`COLOR_WHITE`, -1 for the terminal's
    /// default (or white text on black when default colours are not available).
    func cursesColor(_ color: TerminalColor, isBackground: Bool) -> Int16 {
        if color == .standard {
            if hasDefaultColors { return -1 }
            return isBackground ? Int16(TerminalColor.black.rawValue) : Int16(TerminalColor.white.rawValue)
        }
        return Int16(color.rawValue)
    }
}
