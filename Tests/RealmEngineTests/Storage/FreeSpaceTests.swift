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
        let a = free.allocate(100), b = free.allocate(3000), c = free.allocate(40)
        #expect(a == 65536)
        #expect(b == a + 104)
        #expect(c == b + 3000)
        // A run that reaches the end of the file goes on growing it.
        var tail = FreeSpace(logicalSize: 8192, reusableUpTo: 10)
        let x = tail.allocate(64), y = tail.allocate(64)
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
}
