import BenchSupport
import Foundation

/// The `Person` rows both engines store, column by column.
struct Dataset {
    static let seed: UInt64 = 0x5EED_2024
    /// 2020-09-13T12:26:40Z; `createdAt` falls in the five years after it.
    static let baseSeconds: Int64 = 1_600_000_000

    var ids: [Int64] = []
    var names: [String] = []
    var ages: [Int64] = []
    var scores: [Double] = []
    /// Whole seconds since 1970 (both engines store them exactly).
    var createdAt: [Int64] = []

    var count: Int { ids.count }

    static let latinGiven = ["Alice", "Anna", "Aaron", "Amir", "Bob", "Carla", "David", "Emma", "Felix", "Grace",
                             "Hugo", "Iris", "Jonas", "Kate", "Liam", "Mia", "Noah", "Olga", "Paul", "Zoe"]
    static let latinFamily = ["Smith", "Müller", "Garcia", "Kim", "Nowak", "Rossi", "Dubois", "Silva", "Ivanov", "Sato"]
    static let cjkFamily = ["李", "王", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴", "佐藤", "鈴木"]
    static let cjkGiven = ["伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "娟", "涛",
                           "明", "超", "秀", "霞", "平", "李", "花子", "太郎"]

    /// `n` people with ids 1…n. Names are half Latin ("Anna Rossi 4821"), about 40 % CJK
    /// ("王芳"), the rest mixed ("Emma 李娜"); ages 0–99, scores 0–100.
    static func generate(count n: Int, seed: UInt64 = Dataset.seed) -> Dataset {
        var rng = SplitMix64(seed: seed)
        var d = Dataset()
        d.ids.reserveCapacity(n); d.names.reserveCapacity(n); d.ages.reserveCapacity(n)
        d.scores.reserveCapacity(n); d.createdAt.reserveCapacity(n)
        for i in 0..<n {
            d.ids.append(Int64(i + 1))
            let kind = rng.next() % 10
            let name: String
            if kind < 5 {
                name = "\(latinGiven.randomElement(using: &rng)!) \(latinFamily.randomElement(using: &rng)!) \(rng.next() % 10_000)"
            } else if kind < 9 {
                var s = cjkFamily.randomElement(using: &rng)!
                for _ in 0..<(1 + Int(rng.next() % 2)) { s += cjkGiven.randomElement(using: &rng)! }
                name = s
            } else {
                name = "\(latinGiven.randomElement(using: &rng)!) \(cjkFamily.randomElement(using: &rng)!)\(cjkGiven.randomElement(using: &rng)!)"
            }
            d.names.append(name)
            d.ages.append(Int64(rng.next() % 100))
            d.scores.append(Double(rng.next() % 100_000) / 1000)
            d.createdAt.append(baseSeconds + Int64(rng.next() % (5 * 365 * 86_400)))
        }
        return d
    }

    /// `count` ids in 1…n in a fixed pseudo-random order (for `pk_lookup`).
    static func lookupIDs(count: Int, among n: Int) -> [Int64] {
        var rng = SplitMix64(seed: seed ^ 0xABCD)
        return (0..<count).map { _ in Int64(rng.next() % UInt64(n)) + 1 }
    }
}
