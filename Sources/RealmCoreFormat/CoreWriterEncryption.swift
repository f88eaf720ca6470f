import CCrypto
import Foundation
import RealmEngine

/// Realm Core's encryption layout written over a finished plaintext image: what a Realm app
/// opens with `encryptionKey` (the inverse of `RealmCoreDecryption`, whose doc comment gives
/// the layout: blocks of one 4 KiB IV table and up to 64 pages, each page AES-256-CBC under
/// key bytes 0–31, authenticated by HMAC-SHA-224 under bytes 32–63).
///
/// Every page gets a fresh IV from OpenSSL's CSPRNG. Realm Core itself counts from 1, so two
/// files written under one key would encrypt their pages under the same (key, IV) pairs and
/// show where their plaintexts agree; a random start avoids that, and Realm Core only ever
/// increments what it finds. The entry's second slot says the page was written once before
/// with iv − 1 (zero HMAC): the shape Realm Core leaves after a rewrite (iv1 = iv2 + 1), which
/// both readers check, and an HMAC that no page can match.
public enum RealmCoreEncryption {
    /// The encrypted file for `plain` (a Realm file's bytes), under `key` (64 bytes). The
    /// plaintext is padded with zeros to whole 4 KiB pages, as Realm Core's encrypted files
    /// always are. Throws `RealmError.encryption` for a key of another length (naming `path`).
    public static func encrypt(_ plain: [UInt8], key: [UInt8], path: String) throws -> [UInt8] {
        let pageSize = RealmCoreDecryption.pageSize
        let perBlock = RealmCoreDecryption.pagesPerBlock
        let entrySize = RealmCoreDecryption.entrySize
        let macSize = RealmCoreDecryption.macSize
        guard key.count == 64 else {
            throw RealmError.encryption(
                path: path, reason: "a Realm encryption key is 64 bytes (128 hex digits), got \(key.count) bytes")
        }
        let pages = max(1, (plain.count + pageSize - 1) / pageSize)
        let blocks = (pages + perBlock - 1) / perBlock
        var out = [UInt8](repeating: 0, count: (pages + blocks) * pageSize)
        var ivs = [UInt32](repeating: 0, count: pages)
        let drawn = ivs.withUnsafeMutableBytes {
            rt_random_bytes($0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32($0.count))
        }
        guard drawn == 1 else { throw RealmError.encryption(path: path, reason: "OpenSSL's random source gave no IVs") }
        let aesKey = Array(key[0..<32])
        let macKey = Array(key[32..<64])
        var page = [UInt8](repeating: 0, count: pageSize)
        var mac = [UInt8](repeating: 0, count: macSize)
        var iv = [UInt8](repeating: 0, count: 16)
        for p in 0..<pages {
            let start = p * pageSize
            let end = min(plain.count, start + pageSize)
            for i in 0..<pageSize { page[i] = start + i < end ? plain[start + i] : 0 }
            let iv1 = ivs[p] == 0 ? 1 : ivs[p]  // 0 means "never written"
            let iv2 = iv1 &- 1
            // The 16-byte IV: iv1 (LE), the page's plaintext offset (u64 LE), four zero bytes.
            withUnsafeBytes(of: iv1.littleEndian) { for i in 0..<4 { iv[i] = $0[i] } }
            withUnsafeBytes(of: UInt64(start).littleEndian) { for i in 0..<8 { iv[4 + i] = $0[i] } }
            let block = p / perBlock
            let cipherAt = (block * (perBlock + 1) + 1 + p % perBlock) * pageSize
            let entryAt = block * (perBlock + 1) * pageSize + (p % perBlock) * entrySize
            let ok = out.withUnsafeMutableBufferPointer { o in
                aesKey.withUnsafeBufferPointer { k in
                    iv.withUnsafeBufferPointer { v in
                        page.withUnsafeBufferPointer { src in
                            rt_aes256_cbc_encrypt(
                                k.baseAddress, v.baseAddress, src.baseAddress, o.baseAddress.map { $0 + cipherAt },
                                Int32(pageSize))
                        }
                    }
                }
            }
            guard ok == 1 else {
                throw RealmError.encryption(path: path, reason: "OpenSSL failed to encrypt page \(p)")
            }
            let macked = out.withUnsafeBufferPointer { o in
                macKey.withUnsafeBufferPointer { k in
                    mac.withUnsafeMutableBufferPointer { m in
                        rt_hmac_sha224(
                            k.baseAddress, k.count, o.baseAddress.map { $0 + cipherAt }, pageSize, m.baseAddress)
                    }
                }
            }
            guard macked == 1 else {
                throw RealmError.encryption(path: path, reason: "OpenSSL failed to compute an HMAC-SHA-224")
            }
            withUnsafeBytes(of: iv1.littleEndian) { for i in 0..<4 { out[entryAt + i] = $0[i] } }
            for i in 0..<macSize { out[entryAt + 4 + i] = mac[i] }
            withUnsafeBytes(of: iv2.littleEndian) { for i in 0..<4 { out[entryAt + 32 + i] = $0[i] } }
        }
        return out
    }
}

extension RealmCoreWriter {
    /// Writes a new Realm file at `path` as `write(tables:schemaVersion:toFile:)` does, encrypted
    /// with `encryptionKey` (64 bytes) when one is given, so a Realm app opens it with that key.
    /// `streaming`: in the streaming form (`image(tables:schemaVersion:name:streaming:pageAligned:)`).
    public static func write(
        tables: [RealmCoreWriterTable], schemaVersion: UInt64?, toFile path: String,
        encryptionKey: Data?, streaming: Bool = false
    ) throws {
        let key = try encryptionKey.map { try checked($0, path: path) }
        let plain = try image(
            tables: tables, schemaVersion: schemaVersion, name: path, streaming: streaming, pageAligned: key != nil)
        try writeNewFile(try key.map { try RealmCoreEncryption.encrypt(plain, key: $0, path: path) } ?? plain, to: path)
    }

    /// Writes `realm`'s newest version as a new Realm file at `path` (as `write(_:toFile:)`),
    /// encrypted with `encryptionKey` (64 bytes) when one is given. `streaming`: in the
    /// streaming form Realm's `writeCopy` makes, which Realm Core converts into the committed
    /// form on its first read-write open (`image(tables:schemaVersion:name:streaming:pageAligned:)`).
    public static func write(_ realm: Realm, toFile path: String, encryptionKey: Data?, streaming: Bool = false) throws
    {
        let key = try encryptionKey.map { try checked($0, path: path) }  // before any work
        let tables = try tables(from: realm)
        let plain = try image(
            tables: tables, schemaVersion: realm.schemaVersion, name: path, streaming: streaming,
            pageAligned: key != nil)
        try writeNewFile(try key.map { try RealmCoreEncryption.encrypt(plain, key: $0, path: path) } ?? plain, to: path)
    }

    static func checked(_ key: Data, path: String) throws -> [UInt8] {
        guard key.count == 64 else {
            throw RealmError.encryption(
                path: path, reason: "a Realm encryption key is 64 bytes (128 hex digits), got \(key.count) bytes")
        }
        return [UInt8](key)
    }
}
