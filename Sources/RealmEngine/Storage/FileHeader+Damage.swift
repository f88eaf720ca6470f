/// Telling a damaged header slot from one a crash or a recovery left behind (issue 11, defect 7).
///
/// In the paired layout each slot lies inside one 512-byte sector that starts with the file's
/// identity (magic, header size) and is always written whole (`Layout.slotSector`). Disks write a
/// sector whole or not at all (the power-loss tests model exactly that), so a crash leaves a slot
/// sector holding either its old slot or its new one, both valid. The one other legitimate
/// content is the identity with a zeroed slot: erased after a torn commit (`SharedFile.recoverNewest`,
/// `settleNewest`), or slot 1 of a file that has only its first version (`Realm.initialize`
/// writes slot 1's sector, and syncs it, before it returns).
///
/// Anything else — a sector without the identity whose slot does not decode (zeroed or
/// overwritten), or a slot whose bytes fail their checksum — is damage. That slot may have held
/// the newest commit, so falling back to the other slot must be reported, never silent. A whole
/// zero sector in slot 1's place cannot be told from "never written" by files made before slot
/// 1's sector was written at creation (commit b7a016b) that have only their first version: those
/// are reported too, until their next commit writes slot 1 — a false alarm is the safe side.
///
/// The single layout keeps both slots in sector 0, so a torn sector can leave either slot
/// invalid; it is not judged here.
extension FileHeader {
    /// The indices of the damaged slots of the file mapped at `base` (see above); empty for the
    /// single layout.
    static func damagedSlots(
        base: UnsafeRawPointer, fileSize: UInt64, layout: Layout,
        valid: [(index: Int, slot: Slot)]
    ) -> [Int] {
        guard layout == .paired else { return [] }
        var damaged: [Int] = []
        for (index, offset) in layout.slotOffsets.enumerated() where !valid.contains(where: { $0.index == index }) {
            let sectorStart = offset - layout.slotOffsets[0]
            guard UInt64(sectorStart + 512) <= fileSize else {
                damaged.append(index)
                continue
            }
            let slotBytes = UnsafeRawBufferPointer(start: base + offset, count: slotSize)
            if Slot.decode(slotBytes) != nil { continue }  // valid but refused (a newer format): not damage
            let slotIsZero = slotBytes.allSatisfy { $0 == 0 }
            if Layout.hasMagic(base + sectorStart) {
                if !slotIsZero { damaged.append(index) }
                continue
            }
            damaged.append(index)
        }
        return damaged
    }
}
