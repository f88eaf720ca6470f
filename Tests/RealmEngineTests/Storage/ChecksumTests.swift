import Testing
@testable import RealmEngine

/// `Checksum.hash` is part of the file format (node checksums, commit records, string index
/// keys): its unrolled loop must give what the plain word-at-a-time definition gives.
@Suite struct ChecksumTests {
    /// The definition: a multiply-xorshift mix per little-endian word, then the tail bytes as one
    /// word, then a finalizer.
    private func reference(_ bytes: [UInt8], seed: UInt64) -> UInt64 {
        func mix(_ h: UInt64, _ v: UInt64) -> UInt64 {
            var x = (h ^ v) &* 0x9E37_79B9_7F4A_7C15
            x ^= x >> 29
            return x
        }
        var h = seed ^ UInt64(bytes.count)
        var i = 0
        while i + 8 <= bytes.count {
            var v: UInt64 = 0
            for k in 0..<8 { v |= UInt64(bytes[i + k]) << UInt64(8 * k) }
            h = mix(h, v)
            i += 8
        }
        var tail: UInt64 = 0
        for k in i..<bytes.count { tail |= UInt64(bytes[k]) << UInt64(8 * (k - i)) }
        h = mix(h, tail)
        h ^= h >> 32
        return h &* 0xD6E8_FEB8_6659_FD93 ^ (h >> 31)
    }

    @Test func matchesTheDefinition() {
        var rng = SystemRandomNumberGenerator()
        for n in Array(0...80) + [255, 256, 257, 4095, 4096, 10_001] {
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            for seed: UInt64 in [0x1234_5678_9ABC_DEF1, 0x5354] {
                #expect(
                    bytes.withUnsafeBytes { Checksum.hash($0, seed: seed) } == reference(bytes, seed: seed),
                    "\(n) bytes")
            }
        }
        // A known value (63 bytes: the unrolled rounds, words and a tail), so that the definition
        // itself cannot drift.
        let text = Array("realmtui: an embedded object database, checksummed node by node".utf8)
        #expect(text.withUnsafeBytes { Checksum.hash($0) } == 0x2042_7142_BC18_4FB9)
    }
}
