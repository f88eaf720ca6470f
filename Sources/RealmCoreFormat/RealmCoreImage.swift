import Foundation

/// The bytes of one Realm Core file as the reader sees them: the file mapped read-only in place,
/// a private copy taken while a Realm app had the file open, or the plaintext of an encrypted
/// file. The reader never writes through it, and every offset it follows is checked against
/// `bytes.count` first (a Realm Core file carries no checksums).
///
/// A class rather than a struct so that the memory (a mapping or an allocation) is released
/// exactly once, when the last reader lets go of it.
public final class RealmCoreImage: @unchecked Sendable {
    /// The file's bytes, from offset 0 (the 24-byte header) to the end of the file.
    public let bytes: UnsafeRawBufferPointer
    private let release: () -> Void

    /// Wraps memory the caller owns; `release` runs once, when the image is freed.
    public init(bytes: UnsafeRawBufferPointer, release: @escaping () -> Void) {
        self.bytes = bytes
        self.release = release
    }

    /// An image holding its own copy of `data` (tests, decrypted files, a copy of a file in use).
    public convenience init<Bytes: Collection>(copying data: Bytes) where Bytes.Element == UInt8 {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        let copied = memory.initializeMemory(as: UInt8.self, from: data).initialized.count
        let view = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(memory)[0..<copied])
        self.init(bytes: view, release: { memory.deallocate() })
    }

    deinit { release() }
}
