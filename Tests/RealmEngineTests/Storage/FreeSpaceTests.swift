import Foundation
import Testing
@testable import RealmEngine

/// The free-space manager on its own: tags, joining, runs, the encoding.
@Suite struct FreeSpaceTests {
    @Test func reusableSpaceDoesNotWaitForAYoungerNeighbour() {
        var free = FreeSpace(logicalSize: 1 << 20, reusableUpTo: 5)
        free.free(offset: 8192, length: 4096, freedIn: 5)
        free.free(offset: 12288, length: 4096, freedIn: 6)
        // Merged, the pair would carry tag 6 and neither half could be reused before version 6.
        #expect(free.allExtents.count == 2)
        #expect(free.allocate(4096) == 8192)
    }

    @Test func neighboursThatAreBothReusableMerge() {
        var free = FreeSpace(logicalSize: 1 << 20, reusableUpTo: 9)
        free.free(offset: 8192, length: 4096, freedIn: 3)
        free.free(offset: 12288, length: 4096, freedIn: 7)
        #expect(free.allExtents == [FreeSpace.Extent(offset: 8192, length: 8192, freedIn: 7)])
    }

    @Test func extentsThatBecameReusableAreJoinedWhenAllocating() {
        var free = FreeSpace(logicalSize: 1 << 20, reusableUpTo: 5)
        free.free(offset: 8192, length: 4096, freedIn: 6)
        free.free(offset: 12288, length: 4096, freedIn: 7)
        #expect(free.allExtents.count == 2)
        free.reusableUpTo = 7
        #expect(free.allocate(8192) == 8192)
        #expect(free.allExtents.isEmpty)
    }

    @Test func spaceNoReaderMayReuseIsLeftAlone() {
        var free = FreeSpace(logicalSize: 1 << 20, reusableUpTo: 5)
        free.free(offset: 8192, length: 65536, freedIn: 6)
        #expect(free.allocate(64) == 1 << 20)
        #expect(free.logicalSize == (1 << 20) + 64)
    }

    @Test func aTransactionsAllocationsLieSideBySide() {
        var free = FreeSpace(logicalSize: 1 << 20, reusableUpTo: 10)
        free.free(offset: 4096, length: 4096, freedIn: 1)  // a small hole first in the file
        free.free(offset: 65536, length: 65536, freedIn: 2)
        let a = free.allocate(100)
        let b = free.allocate(3000)
        let c = free.allocate(40)
        #expect(a == 65536)
        #expect(b == a + 104)
        #expect(c == b + 3000)
        // A run that reaches the end of the file goes on growing it.
        var tail = FreeSpace(logicalSize: 8192, reusableUpTo: 10)
        let x = tail.allocate(64)
        let y = tail.allocate(64)
        #expect(x == 8192 && y == 8256 && tail.logicalSize == 8320)
    }

    @Test func smallHolesAreUsedWhenThereIsNoRoomForARun() {
        var free = FreeSpace(logicalSize: 1 << 20, reusableUpTo: 10)
        free.free(offset: 4096, length: 4096, freedIn: 1)
        #expect(free.allocate(1000) == 4096)
        #expect(free.logicalSize == 1 << 20)
    }

    @Test func legacyEncodingStillDecodes() throws {
        var free = FreeSpace(logicalSize: 1 << 24, reusableUpTo: 3)
        for i in 0..<500 {
            free.free(offset: UInt64(4096 + i * 8192), length: UInt64(8 + (i % 7) * 8), freedIn: UInt64(i % 5))
        }
        let payload = FreeSpace.legacyPayload(free.allExtents)
        let decoded = try payload.withUnsafeBytes {
            try FreeSpace.decode($0, logicalSize: free.logicalSize, path: "test", ref: 4096)
        }
        #expect(decoded == free.allExtents)
        #expect(FreeSpace.chunked(decoded).flatMap(\.extents) == decoded)
    }

    @Test func chunksFollowWindowsAndSizesAreExact() {
        var free = FreeSpace(logicalSize: 8 << 20, reusableUpTo: 100)
        free.free(offset: (1 << 20) - 4096, length: 8192, freedIn: 200)  // starts in window 0, ends in 1
        free.free(offset: 3 << 20, length: 64, freedIn: 7)
        free.free(offset: (3 << 20) + 1024, length: 1 << 20, freedIn: 1 << 40)
        #expect(free.extents.map(\.window) == [0, 3])
        for c in free.extents {
            #expect(FreeSpace.chunkPayloadSize(c) == FreeSpace.chunkPayload(c).count)
            #expect(c.extents.allSatisfy { FreeSpace.window(of: $0.offset) == c.window })
        }
        // Carving past a window's end moves what is left to the next window's chunk.
        var tail = FreeSpace(logicalSize: 8 << 20, reusableUpTo: 100)
        tail.free(offset: (1 << 20) - 64, length: 128 << 10, freedIn: 1)
        #expect(tail.allocate(128) == (1 << 20) - 64)
        #expect(tail.extents.filter { !$0.extents.isEmpty }.map(\.window) == [1])
        #expect(tail.allExtents == [FreeSpace.Extent(offset: (1 << 20) + 64, length: (128 << 10) - 128, freedIn: 1)])
    }

    /// A transaction of version `version` writing one node of `length` bytes: the node's birth
    /// is remembered by offset.
    private func write(_ free: inout FreeSpace, version: UInt64, length: Int) -> UInt64 {
        free.releaseTag = version
        return free.allocate(length)
    }

    /// The free list as the next transaction starts from it (`WriteTransaction.init`): its
    /// allocations start a new run.
    private func next(_ free: FreeSpace, pinned: [UInt64], version: UInt64) -> FreeSpace {
        var n = FreeSpace(chunks: free.extents, logicalSize: free.logicalSize, reusableUpTo: pinned[0])
        n.pinned = pinned
        n.births = free.births
        n.releaseTag = version
        return n
    }

    @Test func spaceNoPinnedVersionReachesIsReusedBehindAnOldReader() {
        // A reader holds version 3; the writer commits version 12 (base 11).
        var free = FreeSpace(logicalSize: 1 << 20, reusableUpTo: 3)
        let young = write(&free, version: 5, length: 40_000)  // written by 5, freed by 8: versions 5 ..< 8
        let old = write(&free, version: 2, length: 40_000)  // written by 2: version 3 reaches it
        let late = write(&free, version: 9, length: 40_000)  // freed by 12: the base, 11, reaches it
        let end = free.logicalSize
        free = next(free, pinned: [3, 11], version: 12)
        free.free(offset: young, length: 40_000, freedIn: 8)
        free.free(offset: old, length: 40_000, freedIn: 8)
        free.free(offset: late, length: 40_000, freedIn: 12)
        #expect(free.allExtents.map(\.bornIn) == [5, 2, 9])
        // Only what no pinned version reaches is reused; the rest waits, the file grows.
        #expect(free.allocate(40_000) == young)
        #expect(free.allocate(40_000) == end)
    }

    @Test func anExtentOfUnknownBirthWaitsForTheOldestPin() {
        // Loaded from the file, an extent's birth is unknown: it may be as old as any pin.
        var free = FreeSpace(logicalSize: 1 << 20, reusableUpTo: 3)
        free.pinned = [3, 11]
        free.free(offset: 65536, length: 40_000, freedIn: 8)
        #expect(free.allExtents.map(\.bornIn) == [0])
        #expect(free.allocate(40_000) == 1 << 20)
    }

    @Test func aWaitingExtentIsFoundOnceItsReaderLetsGo() {
        var free = FreeSpace(logicalSize: 1 << 20, reusableUpTo: 3)
        let node = write(&free, version: 5, length: 40_000)
        free = next(free, pinned: [3, 6, 11], version: 12)
        free.free(offset: node, length: 40_000, freedIn: 8)
        let grown = free.allocate(64)  // the search scans the chunk and caches that 6 blocks it
        #expect(grown >= node + 40_000)
        // Next transaction: the reader of 6 is gone (the reader of 3 is not).
        free = next(free, pinned: [3, 12], version: 13)
        #expect(free.allocate(40_000) == node)
    }

    @Test func reusableNeighboursMergeIntoSpaceThatStaysReusable() {
        var free = FreeSpace(logicalSize: 1 << 20, reusableUpTo: 3)
        let a = write(&free, version: 5, length: 4096)
        let b = write(&free, version: 9, length: 4096)
        #expect(b == a + 4096)
        free = next(free, pinned: [3, 8, 11], version: 12)
        free.free(offset: a, length: 4096, freedIn: 7)  // versions 5 ..< 7: no pin
        free.free(offset: b, length: 4096, freedIn: 10)  // versions 9 ..< 10: no pin
        // One extent; tagged with the versions 5 ..< 10 it would wait for the reader of 8,
        // which never saw either node.
        #expect(free.allExtents.count == 1)
        #expect(free.allocate(8192) == a)
    }

    @Test func birthsOlderThanEveryPinAreDropped() {
        var free = FreeSpace(logicalSize: 1 << 20, reusableUpTo: 3)
        for v in 1...400 { _ = write(&free, version: UInt64(v), length: 64) }
        free.reusableUpTo = 300
        free.pinned = [300]
        free.pruneBirths()
        #expect(free.births.count == 100)
        #expect(free.births.values.allSatisfy { $0 > 300 })
    }
}
