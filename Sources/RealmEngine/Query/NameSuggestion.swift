/// "Did you mean …?" for a mistyped name: the closest of a list of known names by edit
/// distance (case-insensitive), when it is close enough to be a plausible typo.
public enum NameSuggestion {
    /// The known name nearest to `name`, or nil when none is within a third of the name's length
    /// (at least 1, at most 3 edits). Ties go to the earlier name in `names`.
    public static func nearest(_ name: String, among names: [String]) -> String? {
        let typed = Array(name.lowercased())
        let limit = min(3, max(1, typed.count / 3))
        var best: (name: String, distance: Int)?
        for candidate in names where candidate != name {
            let d = distance(typed, Array(candidate.lowercased()))
            if d <= limit, d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.name
    }

    /// `" (did you mean 'x'?)"`, or "" when there is no near name.
    public static func hint(_ name: String, among names: [String]) -> String {
        nearest(name, among: names).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Damerau–Levenshtein (optimal string alignment) distance: a swap of two neighbours is one edit.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
