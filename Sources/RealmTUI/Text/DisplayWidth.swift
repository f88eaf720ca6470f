/// Terminal column widths of text, in pure Swift (no libc `wcwidth`, whose answers depend on the
/// installed locale and C library, and which knows nothing of grapheme clusters).
///
/// The unit is the grapheme cluster (`Character`), since that is what a terminal draws in one
/// cell or two:
/// - East Asian Wide and Fullwidth (CJK ideographs, kana, Hangul syllables, fullwidth forms) and
///   emoji with emoji presentation: 2 columns;
/// - a cluster's width is its widest scalar, so combining marks, zero-width joiners, variation
///   selectors, Hangul vowel and final jamo and skin-tone modifiers add nothing
///   (`é` = 1, `👨‍👩‍👧` = 2, `각` written as three jamo = 2);
/// - a text-presentation character with U+FE0F (`❤️`) and a regional-indicator pair (a flag) = 2;
/// - a cluster made only of zero-width scalars (a lone combining mark, U+200B) = 0;
/// - control characters are never sent to the terminal: `sanitizeForTerminal` shows C0 controls
///   and DEL as their Control Pictures (`␊`, `␛`, `␡`) and C1 controls and U+2028/U+2029 as
///   U+FFFD, one column each, and every function here measures text as it will be shown.
/// - Ambiguous-width characters (`…`, `°`, box drawing) count 1, as in a non-CJK locale.
///
/// The tables in `WidthTables.swift` come from Unicode's data via this script:
///
/// ```python
/// import unicodedata as u
/// def wide(cp): return 0x20000 <= cp <= 0x2FFFD or 0x30000 <= cp <= 0x3FFFD \
///     or (not 0xD800 <= cp <= 0xDFFF and u.east_asian_width(chr(cp)) in ('W', 'F'))
/// def zero(cp): return cp != 0xAD and not 0xD800 <= cp <= 0xDFFF and (
///     0x1160 <= cp <= 0x11FF or 0xD7B0 <= cp <= 0xD7FF or cp == 0x200B
///     or u.category(chr(cp)) in ('Mn', 'Me', 'Cf'))
/// # print each predicate's maximal runs of code points as `0xA...0xB` ranges
/// ```

/// The number of terminal columns `s` takes once sanitized for the terminal.
public func displayWidth(_ s: String) -> Int {
    // ASCII, the common case: one column per byte (a control shows as a one-column picture, and
    // CR LF, one cluster, as two).
    if let ascii = s.utf8.withContiguousStorageIfAvailable({ bytes in bytes.allSatisfy { $0 < 0x80 } }), ascii {
        return s.utf8.count
    }
    // Text whose every scalar is a cluster by itself (most non-ASCII text shown: CJK, `·`, `…`,
    // box drawing, control pictures): one scalar at a time, with no cluster breaking.
    if isStandaloneText(s) {
        return s.unicodeScalars.reduce(0) { $0 + (isControl($1) ? 1 : scalarWidth($1)) }
    }
    var total = 0
    for ch in s { total += displayWidth(of: ch) }
    return total
}

/// Whether every scalar of `s` stands alone (`standsAlone`): its grapheme clusters are then its
/// scalars, but for CR LF, which counts as its two controls anyway.
func isStandaloneText(_ s: String) -> Bool {
    s.unicodeScalars.allSatisfy(standsAlone)
}

/// Whether `scalar` is one of the scalars that never join a grapheme cluster with a neighbour
/// that is also one of them: none is an extender, joiner, spacing mark, prepended mark, regional
/// indicator, emoji modifier or Hangul jamo or syllable, and only CR LF (both below U+0300)
/// forms a cluster of two. Text made only of them can be measured and drawn a scalar at a time.
/// Checked against Swift's own cluster breaking in `TextShortcutTests`.
func standsAlone(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    if v < 0x300 { return true }  // Latin and controls; combining marks start at U+0300
    switch v {
    case 0x2010...0x2027, 0x2030...0x205E,  // general punctuation, without its format characters
        0x2190...0x27BF,  // arrows, technical, control pictures, box drawing, shapes, dingbats
        0x2E80...0x2FDF, 0x3000...0x3029, 0x3030...0x303F,  // CJK radicals and punctuation
        0x3041...0x3096, 0x309B...0x30FF,  // kana, without the combining sound marks
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFD,  // ideographs
        0xFF01...0xFF9D, 0xFFE0...0xFFEE, 0xFFFD,  // fullwidth and halfwidth forms, replacement
        0x1F300...0x1F3FA, 0x1F400...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF:  // emoji, no modifiers
        return true
    default:
        return false
    }
}

/// The number of terminal columns one grapheme cluster takes (controls count as their
/// one-column replacement).
public func displayWidth(of ch: Character) -> Int {
    let scalars = ch.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.index(after: scalars.startIndex) == scalars.endIndex {
        // One scalar, the common case: its own width.
        return isControl(first) ? 1 : scalarWidth(first)
    }
    if ch.isASCII {
        // CR LF: two controls.
        return 2
    }
    var widest = 0
    var hasEmojiSelector = false
    var regionalIndicators = 0
    var controls = 0
    for scalar in scalars {
        if isControl(scalar) {
            controls += 1
            continue
        }
        if scalar.value == 0xFE0F { hasEmojiSelector = true }
        if (0x1F1E6...0x1F1FF).contains(scalar.value) { regionalIndicators += 1 }
        widest = max(widest, scalarWidth(scalar))
    }
    if controls > 0 {
        // Controls form their own clusters; each is shown as a one-column picture.
        var sum = 0
        for scalar in scalars { sum += isControl(scalar) ? 1 : scalarWidth(scalar) }
        return sum
    }
    if widest == 1 && (hasEmojiSelector || regionalIndicators >= 2) { return 2 }
    return widest
}

/// The width of one scalar outside any cluster context: 0, 1 or 2 (controls: 1, as shown).
func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x300 { return 1 }  // ASCII, Latin-1 (controls and U+00AD handled as 1), Latin Extended
    if contains(WidthTables.zero, v) { return 0 }
    if v >= 0x1100 && contains(WidthTables.wide, v) { return 2 }
    return 1
}

/// Whether `scalar` is a C0 or C1 control, DEL, or a line or paragraph separator: characters that
/// move the cursor or change the terminal's state instead of drawing.
func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
}

private func contains(_ table: [ClosedRange<UInt32>], _ v: UInt32) -> Bool {
    var lo = 0
    var hi = table.count - 1
    while lo <= hi {
        let mid = (lo + hi) / 2
        let r = table[mid]
        if v < r.lowerBound { hi = mid - 1 } else if v > r.upperBound { lo = mid + 1 } else { return true }
    }
    return false
}

/// `s` with every control character replaced by a visible one-column stand-in: C0 controls by
/// their Control Pictures (U+2400–U+241F, so a newline shows as `␊` and ESC as `␛`), DEL by `␡`,
/// C1 controls and U+2028/U+2029 by U+FFFD. Text from a database never reaches the terminal raw.
public func sanitizeForTerminal(_ s: String) -> String {
    guard containsControl(s) else { return s }
    var out = String.UnicodeScalarView()
    for scalar in s.unicodeScalars {
        let v = scalar.value
        if v < 0x20 {
            out.append(Unicode.Scalar(0x2400 + v) ?? "\u{FFFD}")
        } else if v == 0x7F {
            out.append("\u{2421}")
        } else if isControl(scalar) {
            out.append("\u{FFFD}")
        } else {
            out.append(scalar)
        }
    }
    return String(out)
}

/// Whether `s` holds a scalar `isControl` accepts, read from its UTF-8: a byte below 0x20 or
/// 0x7F, C2 80–C2 9F (C1 controls), E2 80 A8 or E2 80 A9 (the line and paragraph separators).
func containsControl(_ s: String) -> Bool {
    let found = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F { return true }
            if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return true }
            if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
            {
                return true
            }
            index += 1
        }
        return false
    }
    return found ?? s.unicodeScalars.contains(where: isControl)
}

/// How text sits in a column wider than it.
public enum TextAlignment: Sendable, Equatable {
    case left, right, center
}

/// `s` sanitized and cut to at most `width` columns, ending in `ellipsis` when cut. A wide
/// character that would straddle the edge is dropped whole (the result may be one column
/// short; `pad` fills it). Never splits a grapheme cluster.
public func truncate(_ s: String, toWidth width: Int, ellipsis: String = "…") -> String {
    cut(s, toWidth: width, ellipsis: ellipsis).text
}

/// `truncate` with the width of what it returns (measured on the way, not again).
func cut(_ s: String, toWidth width: Int, ellipsis: String) -> (text: String, width: Int) {
    guard width > 0 else { return ("", 0) }
    let clean = sanitizeForTerminal(s)
    let whole = displayWidth(clean)
    if whole <= width { return (clean, whole) }
    let ellipsisWidth = displayWidth(ellipsis)
    let mark = ellipsisWidth <= width ? ellipsis : ""
    let budget = width - (ellipsisWidth <= width ? ellipsisWidth : 0)
    var out = ""
    var used = 0
    /// Counts a cluster's columns when they fit in the budget; false once one does not.
    func fits(_ columns: Int) -> Bool {
        guard used + columns <= budget else { return false }
        used += columns
        return true
    }
    if isStandaloneText(clean) {
        // A scalar at a time (sanitized text has no controls, so no CR LF either).
        for scalar in clean.unicodeScalars {
            guard fits(scalarWidth(scalar)) else { break }
            out.unicodeScalars.append(scalar)
        }
    } else {
        for ch in clean {
            guard fits(displayWidth(of: ch)) else { break }
            out.append(ch)
        }
    }
    return (out + mark, used + (mark.isEmpty ? 0 : ellipsisWidth))
}

/// `s` sanitized, truncated if wider than `width`, and padded with spaces to exactly `width`
/// columns.
public func pad(_ s: String, toWidth width: Int, alignment: TextAlignment = .left, ellipsis: String = "…") -> String {
    guard width > 0 else { return "" }
    let (cut, used) = cut(s, toWidth: width, ellipsis: ellipsis)
    let gap = width - used
    guard gap > 0 else { return cut }
    switch alignment {
    case .left: return cut + String(repeating: " ", count: gap)
    case .right: return String(repeating: " ", count: gap) + cut
    case .center:
        let left = gap / 2
        return String(repeating: " ", count: left) + cut + String(repeating: " ", count: gap - left)
    }
}
