import CCrypto
import Foundation
import RealmEngine

/// The plaintext of an encrypted Realm Core file (what a Realm app writes with
/// `encryptionKey`), decrypted into memory with the app's 64-byte key.
///
/// Layout (Realm Core `util/encrypted_file_mapping.cpp`): the file is a sequence of *blocks*,
/// each one 4 KiB table of IVs followed by up to 64 encrypted 4 KiB pages of the plaintext.
/// The table holds a 64-byte entry per page:
///
/// ```
/// 0   iv1 u32 (LE)   4   HMAC-SHA-224 of the page's ciphertext (28 bytes)
/// 32  iv2 u32 (LE)   36  the previous iv1 and HMAC (28 bytes), kept while a rewrite is under way
/// ```
///
/// A page is AES-256-CBC (no padding) under key bytes 0–31, with the 16-byte IV made of the
/// entry's iv (4 bytes), the page's plaintext offset (u64 LE) and four zero bytes; its HMAC is
/// keyed with bytes 32–63. `iv1 == 0` marks a page never written (zeros). A page whose HMAC
/// matches neither entry is damage — or, for the first page, a wrong key — and is an error, never
/// zeros: the reader then has nothing to misread.
public enum RealmCoreDecryption {
    static let pageSize = 4096
    static let pagesPerBlock = 64
    static let entrySize = 64
    static let macSize = 28

    /// Whether `bytes` could be an encrypted Realm file: a whole number of 4 KiB pages, at least
    /// one table and one page. Only a key tells for sure.
    public static func mayBeEncrypted(fileSize: Int) -> Bool {
        fileSize >= 2 * pageSize && fileSize % pageSize == 0
    }

    /// Whether `start` (the file's first 4 KiB at least) has the layout of an encrypted Realm
    /// file's first IV table: its first page's entry written (iv1 ≠ 0) by Realm Core's rule
    /// (iv1 = iv2 + 1), every written entry following it, and the entries of pages past the
    /// end of the file empty. Random bytes or another format fail this almost surely; only the
    /// key can tell for certain.
    public static func looksEncrypted(start: UnsafeRawBufferPointer, fileSize: Int) -> Bool {
        guard mayBeEncrypted(fileSize: fileSize), start.count >= pageSize else { return false }
        let pagesInFirstBlock = min(fileSize / pageSize - 1, pagesPerBlock)
        for page in 0..<pagesPerBlock {
            let at = page * entrySize
            let iv1 = start.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian
            let iv2 = start.loadUnaligned(fromByteOffset: at + 32, as: UInt32.self).littleEndian
            if page >= pagesInFirstBlock {
                guard start[at..<at + entrySize].allSatisfy({ $0 == 0 }) else { return false }
            } else if iv1 != 0 || page == 0 {
                guard iv1 != 0, iv1 == (iv2 &+ 1 == 0 ? 1 : iv2 &+ 1) else { return false }
            }
        }
        return true
    }

    /// Decrypts `file` (an encrypted Realm file's bytes) with `key` (64 bytes). Throws
    /// `RealmError.encryption` for a key of another length or one that does not open the first
    /// page (a wrong key, or a file that is not encrypted), and `RealmError.corruptFile` naming
    /// the page for one that does not verify or is cut short.
    public static func decrypt(_ file: UnsafeRawBufferPointer, key: [UInt8], path: String) throws -> RealmCoreImage {
        guard key.count == 64 else {
            throw RealmError.encryption(path: path, reason: "a Realm encryption key is 64 bytes, got \(key.count)")
        }
        guard file.count >= 2 * pageSize else {
            throw RealmError.notARealmFile(
                path: path,
                reason:
                    "it is \(file.count) bytes long, too short for an encrypted Realm file (a 4 KiB table and a 4 KiB page at least)"
            )
        }
        let filePages = file.count / pageSize
        let dataPages = filePages - (filePages + pagesPerBlock) / (pagesPerBlock + 1)
        let plain = UnsafeMutableRawBufferPointer.allocate(byteCount: max(dataPages * pageSize, 1), alignment: 16)
        var done = false
        defer { if !done { plain.deallocate() } }
        let aesKey = Array(key[0..<32])
        let macKey = Array(key[32..<64])
        var mac = [UInt8](repeating: 0, count: macSize)
        var iv = [UInt8](repeating: 0, count: 16)
        for page in 0..<dataPages {
            let block = page / pagesPerBlock
            let entryAt = block * (pagesPerBlock + 1) * pageSize + (page % pagesPerBlock) * entrySize
            let cipherAt = (block * (pagesPerBlock + 1) + 1 + page % pagesPerBlock) * pageSize
            let target = UnsafeMutableRawBufferPointer(rebasing: plain[page * pageSize..<(page + 1) * pageSize])
            let iv1 = file.loadUnaligned(fromByteOffset: entryAt, as: UInt32.self).littleEndian
            if iv1 == 0 {
                target.initializeMemory(as: UInt8.self, repeating: 0)  // never written
                continue
            }
            let cipher = UnsafeRawBufferPointer(rebasing: file[cipherAt..<cipherAt + pageSize])
            let computed = macKey.withUnsafeBufferPointer { k in
                mac.withUnsafeMutableBufferPointer { out in
                    rt_hmac_sha224(
                        k.baseAddress, k.count, cipher.baseAddress?.assumingMemoryBound(to: UInt8.self), pageSize,
                        out.baseAddress)
                }
            }
            guard computed == 1 else {
                throw RealmError.encryption(path: path, reason: "OpenSSL failed to compute an HMAC-SHA-224")
            }
            let storedFirst = UnsafeRawBufferPointer(rebasing: file[entryAt + 4..<entryAt + 32])
            let storedSecond = UnsafeRawBufferPointer(rebasing: file[entryAt + 36..<entryAt + 64])
            let usedIV: UInt32
            if mac.elementsEqual(storedFirst) {
                usedIV = iv1
            } else if case let previous = file.loadUnaligned(fromByteOffset: entryAt + 32, as: UInt32.self).littleEndian,
                previous != 0, mac.elementsEqual(storedSecond)
            {
                usedIV = previous  // a rewrite whose entry landed but whose page did not: the page as before
            } else if page == 0 {
                throw RealmError.encryption(
                    path: path, reason: "the key does not open it: a wrong key, or not an encrypted Realm file")
            } else {
                throw RealmError.corruptFile(
                    path: path, offset: UInt64(cipherAt),
                    reason:
                        "encrypted page \(page) does not verify (its HMAC matches neither IV entry): the file is damaged"
                )
            }
            // The HMAC covers the ciphertext, not the IV: a damaged iv would decrypt the page's
            // first 16 bytes wrongly without a sign. Realm Core writes iv1 = iv2 + 1 (the
            // previous iv kept beside it, 0 skipped), so an entry that breaks it is damage.
            let iv2 = file.loadUnaligned(fromByteOffset: entryAt + 32, as: UInt32.self).littleEndian
            guard iv1 == (iv2 &+ 1 == 0 ? 1 : iv2 &+ 1) else {
                throw RealmError.corruptFile(
                    path: path, offset: UInt64(entryAt),
                    reason:
                        "the IV entry of encrypted page \(page) is inconsistent (iv \(iv1) after \(iv2)): the file is damaged"
                )
            }
            withUnsafeBytes(of: usedIV.littleEndian) { for i in 0..<4 { iv[i] = $0[i] } }
            withUnsafeBytes(of: UInt64(page * pageSize).littleEndian) { for i in 0..<8 { iv[4 + i] = $0[i] } }
            let decrypted = aesKey.withUnsafeBufferPointer { k in
                iv.withUnsafeBufferPointer { v in
                    rt_aes256_cbc_decrypt(
                        k.baseAddress, v.baseAddress, cipher.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        target.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(pageSize))
                }
            }
            guard decrypted == 1 else {
                throw RealmError.encryption(path: path, reason: "OpenSSL failed to decrypt page \(page)")
            }
        }
        done = true
        return RealmCoreImage(
            bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(plain)[0..<dataPages * pageSize]),
            release: { plain.deallocate() })
    }
}
