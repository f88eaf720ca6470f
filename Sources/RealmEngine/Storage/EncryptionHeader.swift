/// Page 0 of an encrypted file, in clear: what identifies the file as encrypted and lets open
/// tell a wrong key from a damaged page (`EncryptedFile`).
///
/// ```
/// 0   "RLMCRYPT"          magic (8 bytes)
/// 8   format u32          1
/// 12  page size u32       4096
/// 16  pages per group u32 32
/// 32  salt (16 bytes)     random, per file
/// 48  key check (32)      HMAC-SHA-256(key: the 64-byte key, "realmtui key check v1" ‖ salt)
/// 80  checksum u64        of bytes 0..<80 (not keyed: tells a damaged header from a wrong key)
/// ```
/// Written once when the file is made; never rewritten.
struct EncryptionHeader {
    static let magic = Array("RLMCRYPT".utf8)
    static let format: UInt32 = 1
    let salt: [UInt8]
    let keyCheck: [UInt8]

    /// Whether `head` (the file's first bytes) starts like an encrypted file.
    static func isEncrypted(_ head: UnsafeRawBufferPointer) -> Bool {
        head.count >= magic.count && head.prefix(magic.count).elementsEqual(magic)
    }

    /// A header for a new file under `key`, or nil if OpenSSL fails.
    static func new(key: [UInt8]) -> EncryptionHeader? {
        guard let salt = PageCipher.randomBytes(16), let check = PageCipher.keyCheck(key: key, salt: salt) else {
            return nil
        }
        return EncryptionHeader(salt: salt, keyCheck: check)
    }

    func bytes() -> [UInt8] {
        var out = EncryptionHeader.magic
        for v in [EncryptionHeader.format, UInt32(PageCipher.pageSize), UInt32(EncryptedFile.groupPages)] {
            withUnsafeBytes(of: v.littleEndian) { out += $0 }
        }
        out += [UInt8](repeating: 0, count: 32 - out.count)
        out += salt + keyCheck
        let sum = out.withUnsafeBytes { Checksum.hash($0, seed: 0xC4) }
        withUnsafeBytes(of: sum.littleEndian) { out += $0 }
        return out + [UInt8](repeating: 0, count: PageCipher.pageSize - out.count)
    }

    /// Decodes page 0 of a file opened with a key: refuses a plain realmtui file, a foreign file,
    /// a damaged header and a format this program does not know.
    static func read(_ head: [UInt8], path: String) throws -> EncryptionHeader {
        if head.starts(with: FileHeader.magic.prefix(6)) {
            throw RealmError.encryption(
                path: path, reason: "the file is not encrypted: open it without an encryption key")
        }
        guard head.count >= 88, head.starts(with: magic) else {
            throw RealmError.notARealmFile(
                path: path,
                reason: head.count < 88 ? "the file is too short (\(head.count) bytes)" : "unknown file signature")
        }
        let stored = head.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: 80, as: UInt64.self))
        }
        guard
            stored == head.withUnsafeBytes({ Checksum.hash(UnsafeRawBufferPointer(rebasing: $0[0..<80]), seed: 0xC4) })
        else {
            throw RealmError.corruptFile(path: path, offset: 0, reason: "the encryption header is damaged")
        }
        func u32(_ at: Int) -> UInt32 {
            head.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt32.self)) }
        }
        guard u32(8) == format, u32(12) == UInt32(PageCipher.pageSize), u32(16) == UInt32(EncryptedFile.groupPages)
        else {
            throw RealmError.encryption(
                path: path, reason: "an encryption format this program does not know (\(u32(8))); upgrade realmtui")
        }
        return EncryptionHeader(salt: Array(head[32..<48]), keyCheck: Array(head[48..<80]))
    }
}
