import Foundation
import RealmEngine

/// What the first bytes of a file say about it, before any structure is read: a Realm Core file
/// (plain, committed or streaming form), a file that may be an encrypted Realm file (its first
/// 4 KiB is an IV table, not a header), or something else.
public enum RealmCoreFileKind: Sendable, Equatable {
    /// A plaintext Realm Core file with the facts of its 24-byte header.
    case realmCore(RealmCoreHeaderFacts)
    /// No Realm Core header, but a size and first page consistent with Realm's encryption layout
    /// (a whole number of 4 KiB blocks); only a key can tell.
    case possiblyEncryptedRealm
    /// Neither: the reason says what the header lacks.
    case other(reason: String)
}

/// The facts of a Realm Core file's 24-byte header (and, in the streaming form, its 16-byte
/// footer): which format it is in, which of the two slots is current and where the top array is.
///
/// Layout (Realm Core `alloc_slab.hpp`, `Header`): two little-endian u64 top refs, the mnemonic
/// `T-DB` in bytes 16–19, the file format of slot 0 and slot 1 in bytes 20 and 21, a reserved
/// byte and a flags byte whose bit 0 selects the current slot. A file written as a stream
/// (`Group::write`, `writeCopy`) has top ref 0xFFFF_FFFF_FFFF_FFFF in slot 0 and its real top ref
/// in a footer at the end of the file: the u64 top ref then the u64 cookie 0x3034125237E526C8.
public struct RealmCoreHeaderFacts: Sendable, Equatable {
    /// The size of the header.
    public static let headerSize = 24
    /// The size of the streaming form's footer.
    public static let footerSize = 16
    /// The cookie that ends a streaming-form footer.
    public static let footerCookie: UInt64 = 0x3034_1252_37E5_26C8
    /// The formats this reader knows (Realm Core 10 to 14+).
    public static let supportedFormats: ClosedRange<Int> = 20...24

    /// How the current top ref is found.
    public enum Form: String, Sendable, Equatable {
        /// Written by a transaction: the select bit picks one of the two header slots.
        case committed
        /// Written as a stream: slot 0 holds all ones and the footer holds the top ref.
        case streaming
    }

    /// The file format of the current slot (20–24 are Realm Core 10 to 14+).
    public let format: Int
    /// Committed (two slots) or streaming (footer).
    public let form: Form
    /// The slot the flags byte selects (0 or 1); 0 for the streaming form.
    public let selectedSlot: Int
    /// The two slots' top refs as stored (slot 0 is all ones in the streaming form).
    public let topRefs: (UInt64, UInt64)
    /// The ref of the current top array (0 for an empty file).
    public let topRef: UInt64
    /// The size of the file (plaintext size for an encrypted file).
    public let fileSize: UInt64
    /// True when these facts come from a decrypted file.
    public let encrypted: Bool

    public static func == (a: Self, b: Self) -> Bool {
        a.format == b.format && a.form == b.form && a.selectedSlot == b.selectedSlot && a.topRefs == b.topRefs
            && a.topRef == b.topRef && a.fileSize == b.fileSize && a.encrypted == b.encrypted
    }

    /// The Realm Core releases that write this format, from Realm Core's CHANGELOG
    /// (20: 10.0.0-beta.7; 21: 11.0.0-beta.0; 22: 11.0.0-beta.6; 23: 13.0.0; 24: 14.0.0-beta.0).
    public static func coreVersions(ofFormat format: Int) -> String? {
        switch format {
        case 20: return "Realm Core 10"
        case 21: return "a Realm Core 11 beta"
        case 22: return "Realm Core 11 or 12"
        case 23: return "Realm Core 13"
        case 24: return "Realm Core 14 or later"
        default: return nil
        }
    }

    /// "Realm file, format 24, written by Realm Core 14 or later".
    public var summary: String {
        var text = (encrypted ? "encrypted Realm file" : "Realm file") + ", format \(format)"
        if let versions = Self.coreVersions(ofFormat: format) { text += ", written by \(versions)" }
        return text
    }

    /// Nil when this reader can read the format, otherwise why not (older formats must be upgraded
    /// by a Realm app, newer ones are unknown to this build).
    public var unsupportedReason: String? {
        if format == 0 && topRef == 0 { return nil }  // an empty file whose format is not decided yet
        if format < Self.supportedFormats.lowerBound {
            return
                "Realm file format \(format) is older than \(Self.supportedFormats.lowerBound), which realmtui reads; "
                + "open it in a current Realm app to upgrade it"
        }
        if format > Self.supportedFormats.upperBound {
            return
                "Realm file format \(format) is newer than \(Self.supportedFormats.upperBound), the newest realmtui reads"
        }
        return nil
    }

    /// True when `bytes` begin with a Realm Core header (the `T-DB` mnemonic at bytes 16–19).
    public static func hasMnemonic<Bytes: Collection>(_ bytes: Bytes) -> Bool
    where Bytes.Element == UInt8, Bytes.Index == Int {
        bytes.count >= headerSize && Array(bytes[bytes.startIndex + 16..<bytes.startIndex + 20]) == Array("T-DB".utf8)
    }

    /// Reads the header (and footer) of a whole plaintext file. Throws `notARealmFile` when the
    /// mnemonic is missing and `corruptFile` (naming the offset) when a ref points outside the file.
    public init(file bytes: UnsafeRawBufferPointer, path: String, encrypted: Bool = false) throws {
        guard bytes.count >= Self.headerSize else {
            throw RealmError.notARealmFile(
                path: path, reason: "it is \(bytes.count) bytes long, shorter than a Realm file's 24-byte header")
        }
        guard Self.hasMnemonic(bytes) else {
            throw RealmError.notARealmFile(path: path, reason: "bytes 16–19 are not the Realm file mnemonic \"T-DB\"")
        }
        func u64(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        let size = UInt64(bytes.count)
        let slot0 = u64(0)
        let slot1 = u64(8)
        let flags = bytes[23]
        if slot0 == UInt64.max {
            // Streaming form: the footer at the end holds the real top ref and the cookie.
            guard bytes.count >= Self.headerSize + Self.footerSize else {
                throw RealmError.corruptFile(
                    path: path, offset: 0, reason: "a streaming-form Realm file too short to hold its 16-byte footer")
            }
            let footer = bytes.count - Self.footerSize
            guard u64(footer + 8) == Self.footerCookie else {
                throw RealmError.corruptFile(
                    path: path, offset: UInt64(footer + 8),
                    reason: "a streaming-form Realm file whose footer lacks its cookie (the file may be truncated)")
            }
            self.init(
                format: Int(bytes[20]), form: .streaming, selectedSlot: 0, topRefs: (slot0, slot1),
                topRef: u64(footer), fileSize: size, encrypted: encrypted)
        } else {
            let slot = Int(flags & 1)
            self.init(
                format: Int(bytes[20 + slot]), form: .committed, selectedSlot: slot, topRefs: (slot0, slot1),
                topRef: slot == 0 ? slot0 : slot1, fileSize: size, encrypted: encrypted)
        }
        // A top ref must name a node inside the file, 8-aligned, past the header.
        if topRef != 0 && (topRef % 8 != 0 || topRef < UInt64(Self.headerSize) || topRef >= size) {
            throw RealmError.corruptFile(
                path: path, offset: form == .streaming ? size - UInt64(Self.footerSize) : UInt64(8 * selectedSlot),
                reason: "the top ref \(topRef) is not an 8-aligned offset inside the \(size)-byte file")
        }
    }

    /// Builds facts from known values (tests, decrypted files).
    public init(
        format: Int, form: Form, selectedSlot: Int, topRefs: (UInt64, UInt64), topRef: UInt64, fileSize: UInt64,
        encrypted: Bool
    ) {
        self.format = format
        self.form = form
        self.selectedSlot = selectedSlot
        self.topRefs = topRefs
        self.topRef = topRef
        self.fileSize = fileSize
        self.encrypted = encrypted
    }

    /// Classifies a file by its first bytes and its size: a plain Realm Core file, possibly an
    /// encrypted one (a whole number of 4 KiB blocks, at least an IV table page and one data page,
    /// no mnemonic), or something else.
    public static func classify(file bytes: UnsafeRawBufferPointer, path: String) -> RealmCoreFileKind {
        if hasMnemonic(bytes) {
            do { return .realmCore(try RealmCoreHeaderFacts(file: bytes, path: path)) } catch {
                return .other(reason: "\(error)")
            }
        }
        if bytes.count >= 2 * 4096 && bytes.count % 4096 == 0 { return .possiblyEncryptedRealm }
        if bytes.count < headerSize {
            return .other(reason: "it is \(bytes.count) bytes long, shorter than a Realm file's 24-byte header")
        }
        return .other(reason: "bytes 16–19 are not the Realm file mnemonic \"T-DB\"")
    }
}
