import Foundation
import RealmEngine

/// The 24-byte header of a Realm Core file: two top refs, the mnemonic `T-DB`, a format byte per
/// slot and a flags byte whose bit 0 selects the slot in use; or the streaming form (top ref
/// 0xFFFF…FF, the real top ref in a 16-byte footer ending in a magic cookie) written by
/// `Group::write` (compaction, `writeCopy`).
public struct RealmCoreHeader: Sendable, Equatable {
    /// How the file was written.
    public enum Form: String, Sendable {
        /// Written by a running database: two header slots, free lists, a version.
        case committed
        /// Written in one pass by `Group::write`: the top ref is in the footer.
        case streaming
    }

    /// The file format of the selected slot (20–24 are read).
    public let formatVersion: Int
    public let form: Form
    /// The top ref actually used (from the footer in the streaming form); 0 for an empty file.
    public let topRef: Int
    /// The slot bit 0 of byte 23 selects.
    public let selectedSlot: Int
    /// Both top refs as stored in bytes 0–15.
    public let storedTopRefs: (UInt64, UInt64)

    public static func == (a: Self, b: Self) -> Bool {
        a.formatVersion == b.formatVersion && a.form == b.form && a.topRef == b.topRef
            && a.selectedSlot == b.selectedSlot
            && a.storedTopRefs == b.storedTopRefs
    }

    /// The footer's magic cookie (Realm Core's `SlabAlloc::footer_magic_cookie`).
    static let footerCookie: UInt64 = 0x3034_1252_37E5_26C8
    /// File formats this reader understands.
    public static let supportedFormats = 20...24

    /// True when `bytes` start like a Realm Core file (`T-DB` at 16–19).
    public static func looksLikeRealmCoreFile(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 24 && bytes[16] == 0x54 && bytes[17] == 0x2D && bytes[18] == 0x44 && bytes[19] == 0x42
    }

    /// Reads and checks the header (and the footer of a streaming file).
    init(_ b: CoreBytes) throws {
        guard b.size >= 24 else {
            throw RealmError.notARealmFile(
                path: b.name, reason: "\(b.size) bytes is shorter than a Realm file header (24)")
        }
        guard Self.looksLikeRealmCoreFile(UnsafeRawBufferPointer(start: b.base, count: 24)) else {
            throw RealmError.notARealmFile(path: b.name, reason: "no T-DB mnemonic at bytes 16–19")
        }
        let refs = (b.u64(at: 0), b.u64(at: 8))
        let slot = Int(b.byte(at: 23) & 1)
        let format = Int(b.byte(at: 20 + slot))
        storedTopRefs = refs
        selectedSlot = slot
        formatVersion = format
        guard format <= 24 else {
            // Not `newerFormat`: its advice (upgrade realmtui) does not fit a Realm Core format.
            throw RealmError.unsupportedFormat(
                "\(b.name): Realm file format \(format) is newer than 24 (Realm Core 14–20); format 25 is Realm Core next-major's (compressed arrays, interned strings) and is not read"
            )
        }
        guard format >= 20 else {
            throw RealmError.unsupportedFormat(
                "\(b.name): Realm file format \(format) is older than 20 (Realm Core 10); only formats 20–24 are read")
        }
        let stored = slot == 0 ? refs.0 : refs.1
        if refs.0 == UInt64.max, slot == 0 {
            form = .streaming
            guard b.size >= 24 + 16 else { throw b.corrupt(b.size, "streaming-form file too short for its footer") }
            let footer = b.size - 16
            guard b.u64(at: footer + 8) == Self.footerCookie else {
                throw b.corrupt(footer, "streaming-form file without the footer cookie (truncated?)")
            }
            let top = b.u64(at: footer)
            guard top < UInt64(footer) else { throw b.corrupt(footer, "footer top ref \(top) is outside the file") }
            topRef = Int(top)
        } else {
            form = .committed
            guard stored < UInt64(b.size) else {
                throw b.corrupt(slot * 8, "top ref \(stored) is past the end of the file (size \(b.size)): truncated?")
            }
            topRef = Int(stored)
        }
    }
}
