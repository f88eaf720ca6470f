extension BoundQuery {
    /// Matches number `skip ..< skip + limit` in key order, found without listing the others:
    /// whole leaves before the window are only counted (packed int ranges in one loop), and the
    /// scan stops once the window is full. Nil when the query needs the general path (SORT,
    /// DISTINCT or LIMIT, an index plan, a predicate the column scan cannot test, or a writer's
    /// decoded leaves). Memory is O(limit), whatever the class's size.
    func window(in store: some ObjectStore, skip: Int, limit: Int) throws -> [ObjectKey]? {
        guard ordering.isEmpty, indexPlan == nil, let test = columnTest, skip >= 0, limit > 0 else { return nil }
        var seen = 0
        var out: [ObjectKey] = []
        out.reserveCapacity(limit)
        let range = test.intRange
        do {
            let scanned = try store.forEachCluster(classIndex: classIndex) { leaf in
                guard case .view(let view) = leaf else { throw WindowScanStop.needsGeneralPath }
                let packed = range.flatMap { view.packedInts(column: $0.column) }
                if let range, let packed {
                    let matches = packed.count(from: range.lower, through: range.upper)
                    if seen + matches <= skip {
                        seen += matches
                        return
                    }
                }
                for row in 0..<view.count where test.matches(view, row) {
                    if seen >= skip {
                        out.append(ObjectKey(view.key(at: row)))
                        if out.count == limit { throw WindowScanStop.full }
                    }
                    seen += 1
                }
            }
            return scanned ? out : nil
        } catch WindowScanStop.full {
            return out
        } catch WindowScanStop.needsGeneralPath {
            return nil
        }
    }
}

/// How a window scan leaves the leaf loop early.
private enum WindowScanStop: Error {
    case full, needsGeneralPath
}
