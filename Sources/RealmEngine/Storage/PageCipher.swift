import CCrypto
import Foundation

/// The cryptography of an encrypted file, one 4 KiB page at a time (OpenSSL libcrypto).
///
/// A 64-byte key splits as Realm's does: bytes 0–31 key AES-256, bytes 32–63 key HMAC-SHA-256.
/// Every write of a page encrypts it with AES-256-CTR under a fresh random 16-byte IV (the
/// initial counter block; a page is 256 blocks, and random 128-bit IVs do not repeat in
/// practice), and authenticates `IV ‖ page number ‖ write counter ‖ ciphertext` with the HMAC:
/// a page moved to another place, an old copy put back under a newer counter, or any changed
/// bit fails the check.
///
/// Not thread-safe (OpenSSL contexts are reused between calls): `EncryptedFile` serialises.
final class PageCipher {
    static let keySize = 64
    static let pageSize = 4096
    static let ivSize = 16
    static let macSize = 32

    private let contexts: UnsafeMutablePointer<rt_page_cipher>
    /// The key as given, to tell a second opener in this process with another key (the shared
    /// file is reused, so the key check value in the file is not consulted again).
    let key: [UInt8]

    /// Throws `RealmError.encryption` for a key that is not 64 bytes.
    init(key: [UInt8], path: String) throws {
        guard key.count == PageCipher.keySize else {
            throw RealmError.encryption(
                path: path, reason: "an encryption key must be \(PageCipher.keySize) bytes, got \(key.count)")
        }
        guard let made = key.withUnsafeBufferPointer({ rt_page_cipher_new($0.baseAddress) }) else {
            throw RealmError.encryption(path: path, reason: "OpenSSL could not set up AES-256-CTR and HMAC-SHA-256")
        }
        contexts = made
        self.key = key
    }

    deinit { rt_page_cipher_free(contexts) }

    /// The authenticated header of a page copy: IV, page number and write counter.
    private static func macHead(iv: UnsafeRawBufferPointer, page: UInt64, counter: UInt64) -> [UInt8] {
        var head = [UInt8](iv)
        withUnsafeBytes(of: page.littleEndian) { head += $0 }
        withUnsafeBytes(of: counter.littleEndian) { head += $0 }
        return head
    }

    /// Encrypts one page of `plain` into `cipher` under a fresh IV; returns the page's entry
    /// (counter, IV and MAC) to store beside it.
    func seal(
        _ plain: UnsafeRawBufferPointer, into cipher: UnsafeMutableRawBufferPointer, page: UInt64, counter: UInt64,
        path: String
    ) throws -> PageEntry {
        var entry = PageEntry(counter: counter)
        let ok = entry.iv.withUnsafeMutableBytes { iv -> Bool in
            guard rt_random_bytes(iv.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(PageCipher.ivSize)) == 1
            else { return false }
            return rt_page_cipher_ctr(
                contexts, iv.baseAddress?.assumingMemoryBound(to: UInt8.self),
                plain.baseAddress?.assumingMemoryBound(to: UInt8.self),
                cipher.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(PageCipher.pageSize)) == 1
        }
        guard ok, let mac = mac(UnsafeRawBufferPointer(cipher), iv: entry.iv, page: page, counter: counter) else {
            throw RealmError.encryption(path: path, reason: "OpenSSL failed to encrypt page \(page)")
        }
        entry.mac = mac
        return entry
    }

    /// Whether `cipher` is the copy `entry` describes, written for `page`.
    func verifies(_ cipher: UnsafeRawBufferPointer, entry: PageEntry, page: UInt64) -> Bool {
        guard let expected = mac(cipher, iv: entry.iv, page: page, counter: entry.counter) else { return false }
        return expected.withUnsafeBytes { a in
            entry.mac.withUnsafeBytes { b in
                rt_memcmp_consttime(a.baseAddress, b.baseAddress, PageCipher.macSize) == 0
            }
        }
    }

    /// Decrypts a verified copy into `plain`; false if OpenSSL fails.
    func open(_ cipher: UnsafeRawBufferPointer, entry: PageEntry, into plain: UnsafeMutableRawBufferPointer) -> Bool {
        entry.iv.withUnsafeBytes { iv in
            rt_page_cipher_ctr(
                contexts, iv.baseAddress?.assumingMemoryBound(to: UInt8.self),
                cipher.baseAddress?.assumingMemoryBound(to: UInt8.self),
                plain.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(PageCipher.pageSize)) == 1
        }
    }

    private func mac(_ cipher: UnsafeRawBufferPointer, iv: [UInt8], page: UInt64, counter: UInt64) -> [UInt8]? {
        let head = iv.withUnsafeBytes { PageCipher.macHead(iv: $0, page: page, counter: counter) }
        var out = [UInt8](repeating: 0, count: PageCipher.macSize)
        let ok = head.withUnsafeBufferPointer { h in
            out.withUnsafeMutableBufferPointer { o in
                rt_page_cipher_mac(
                    contexts, h.baseAddress, h.count, cipher.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    cipher.count, o.baseAddress) == 1
            }
        }
        return ok ? out : nil
    }

    /// The key check value stored in the file's encryption header: HMAC-SHA-256 under the whole
    /// 64-byte key of a fixed label and the file's random salt. A different key — in either
    /// half — gives a different value, so open tells "wrong key" from a tampered page.
    static func keyCheck(key: [UInt8], salt: [UInt8]) -> [UInt8]? {
        let data = Array("realmtui key check v1".utf8) + salt
        var out = [UInt8](repeating: 0, count: macSize)
        let ok = key.withUnsafeBufferPointer { k in
            data.withUnsafeBufferPointer { d in
                out.withUnsafeMutableBufferPointer { o in
                    rt_hmac_sha256(k.baseAddress, k.count, d.baseAddress, d.count, o.baseAddress) == 1
                }
            }
        }
        return ok ? out : nil
    }

    /// `count` random bytes from OpenSSL's generator.
    static func randomBytes(_ count: Int) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { rt_random_bytes($0.baseAddress, Int32(count)) == 1 }
        return ok ? out : nil
    }

    /// Whether two equal-length byte strings are equal, in constant time.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count
            && a.withUnsafeBytes { x in
                b.withUnsafeBytes { y in rt_memcmp_consttime(x.baseAddress, y.baseAddress, a.count) == 0 }
            }
    }
}

/// What the metadata page of a group stores for one physical copy of a logical page (64 bytes,
/// never straddling a 512-byte sector): the copy's write counter (0: never written), the IV it
/// was encrypted under and its MAC.
///
/// ```
/// 0   counter u64     8   IV (16 bytes)     24  HMAC-SHA-256 (32 bytes)     56  zero (8)
/// ```
struct PageEntry: Equatable {
    static let size = 64
    var counter: UInt64
    var iv = [UInt8](repeating: 0, count: PageCipher.ivSize)
    var mac = [UInt8](repeating: 0, count: PageCipher.macSize)

    static let empty = PageEntry(counter: 0)

    init(counter: UInt64) { self.counter = counter }

    init(_ raw: UnsafeRawBufferPointer) {
        counter = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        iv = [UInt8](UnsafeRawBufferPointer(rebasing: raw[8..<24]))
        mac = [UInt8](UnsafeRawBufferPointer(rebasing: raw[24..<56]))
    }

    func store(into raw: UnsafeMutableRawBufferPointer) {
        raw.storeBytes(of: counter.littleEndian, toByteOffset: 0, as: UInt64.self)
        for i in 0..<PageCipher.ivSize { raw[8 + i] = iv[i] }
        for i in 0..<PageCipher.macSize { raw[24 + i] = mac[i] }
        for i in 56..<PageEntry.size { raw[i] = 0 }
    }
}
