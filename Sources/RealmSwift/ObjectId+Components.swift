import Foundation
import Synchronization

// RealmSwift's ObjectId API beyond parsing: its text, its creation time, and an id made from
// given components. The byte layout is Realm Core's (object_id.cpp), so ids made here sort and
// read back as ids made by any Realm SDK.

/// The counter of the last three bytes, started at a random value as Realm Core's is, so ids
/// made in the same second by this process still differ and sort in creation order.
private let objectIdCounter = Atomic<UInt32>(UInt32.random(in: 0...0xFF_FFFF))

extension ObjectId {
    /// The zero id (all twelve bytes 0), as RealmSwift's `ObjectId()`; `ObjectId.generate()`
    /// makes a new, unique one.
    public init() {
        self.init(words: (0, 0, 0))
    }

    /// The 24 lowercase hexadecimal digits of this id (RealmSwift's `stringValue`).
    public var stringValue: String { description }

    /// The creation time stored in the first four bytes, in whole seconds.
    public var timestamp: Date { Date(timeIntervalSince1970: TimeInterval(bytes.0)) }

    /// An id from the given time (whole seconds, big-endian, so ids sort by time), the low three
    /// bytes of `machineId` and low two of `processId` (least significant first, as Realm Core
    /// copies them) and the next value of a per-process counter.
    public init(timestamp: Date, machineId: Int, processId: Int) {
        let seconds = UInt32(truncatingIfNeeded: Int64(timestamp.timeIntervalSince1970.rounded(.down)))
        let m = UInt32(truncatingIfNeeded: machineId)
        let p = UInt32(truncatingIfNeeded: processId)
        let counter = objectIdCounter.add(1, ordering: .relaxed).newValue & 0xFF_FFFF
        let machineBytes = (m & 0xFF) << 24 | (m >> 8 & 0xFF) << 16 | (m >> 16 & 0xFF) << 8
        let second = machineBytes | (p & 0xFF)
        let third = (p >> 8 & 0xFF) << 24 | counter
        self.init(words: (seconds, second, third))
    }
}
