import Foundation

/// A byte count for people to read: `700 B`, `12.5 KiB`, `3.3 MiB`, `1.2 GiB` (binary units, a
/// point for the decimal whatever the locale, as scripts read these lines).
package enum ByteCount {
    package static func text(_ count: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        if count < 1024 { return "\(count) B" }
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f %@", value, units[unit])
    }
}
