import CShims
import Foundation

/// Every `Object` subclass the program defines, found as RealmSwift finds them for a Realm
/// opened without `objectTypes` — there through the Objective-C runtime's class list, here
/// through the Swift runtime's type metadata records (the `swift5_type_metadata` section of
/// every loaded image, listed by `swift_enumerateAllMetadataSections`, the runtime entry point
/// Swift Testing also discovers tests with).
///
/// A record names a type's context descriptor; a class descriptor that is not generic has a
/// metadata accessor, which gives the class. The toolchain's own libraries (the standard
/// library, Foundation, XCTest, Swift Testing) define no models, so their images are skipped
/// rather than have the metadata of their many classes made for nothing. Generic classes cannot
/// be models (Realm stores a class by name) and are skipped too.
enum ClassDiscovery {
    /// The classes, found once per process (images loaded later, by `dlopen`, are not seen).
    static let objectTypes: [Object.Type] = discover()

    /// `MetadataSections` (the runtime's `MetadataSections.h`): version, base address, two
    /// unused words, then `{start, length}` ranges; `swift5_type_metadata` is the third.
    private static let baseAddressOffset = MemoryLayout<UInt>.size
    private static let typeMetadataRangeOffset = 4 * MemoryLayout<UInt>.size + 2 * 2 * MemoryLayout<UInt>.size

    private final class Found {
        var types: [Object.Type] = []
    }

    private static func discover() -> [Object.Type] {
        let found = Found()
        withExtendedLifetime(found) {
            swift_enumerateAllMetadataSections(
                { sections, context in
                    let found = Unmanaged<Found>.fromOpaque(context).takeUnretainedValue()
                    ClassDiscovery.scan(sections, into: found)
                    return true
                }, Unmanaged.passUnretained(found).toOpaque())
        }
        return found.types
    }

    /// Whether the image at `base` belongs to the Swift toolchain (its runtime libraries).
    private static func isToolchainImage(_ base: UnsafeRawPointer?) -> Bool {
        guard let base, let name = cshims_image_path(base) else { return false }
        let path = String(cString: name)
        return path.contains("/lib/swift/") || path.contains("/lib/swift_static/")
    }

    private static func scan(_ sections: UnsafeRawPointer, into found: Found) {
        let base = sections.load(fromByteOffset: baseAddressOffset, as: UnsafeRawPointer?.self)
        if isToolchainImage(base) { return }
        guard let start = sections.load(fromByteOffset: typeMetadataRangeOffset, as: UnsafeRawPointer?.self) else {
            return
        }
        let length = sections.load(fromByteOffset: typeMetadataRangeOffset + MemoryLayout<UInt>.size, as: UInt.self)
        let recordSize = MemoryLayout<Int32>.size
        for index in 0..<Int(length) / recordSize {
            let record = start + index * recordSize
            guard let descriptor = typeDescriptor(record), let type = objectType(descriptor) else { continue }
            found.types.append(type)
        }
    }

    /// The context descriptor a type metadata record names: a relative pointer whose low two
    /// bits say whether it points at the descriptor (0) or at a pointer to it (1); the other
    /// kinds name Objective-C classes, which Linux has none of.
    private static func typeDescriptor(_ record: UnsafeRawPointer) -> UnsafeRawPointer? {
        let raw = record.load(as: Int32.self)
        let target = record + Int(raw & ~3)
        switch raw & 3 {
        case 0: return target
        case 1: return target.load(as: UnsafeRawPointer?.self)
        default: return nil
        }
    }

    /// The `Object` subclass a class descriptor describes, if it is one. Descriptor layout
    /// (`TargetTypeContextDescriptor`): flags (kind in bits 0–4, 16 = class; bit 7 generic),
    /// parent, name, then the relative pointer to the metadata accessor at byte 12.
    private static func objectType(_ descriptor: UnsafeRawPointer) -> Object.Type? {
        let flags = descriptor.load(as: UInt32.self)
        guard flags & 0x1F == 16, flags & 0x80 == 0 else { return nil }
        let accessorField = descriptor + 12
        let offset = accessorField.load(as: Int32.self)
        guard offset != 0 else { return nil }
        // A metadata accessor takes the request (0: complete metadata) and returns the metadata
        // first; on the platforms Swift runs on Linux its convention matches C's for this shape.
        typealias Accessor = @convention(c) (Int) -> UnsafeRawPointer?
        let accessor = unsafeBitCast(accessorField + Int(offset), to: Accessor.self)
        guard let metadata = accessor(0) else { return nil }
        let type = unsafeBitCast(metadata, to: Any.Type.self)
        guard let objectType = type as? Object.Type, objectType != Object.self,
            !String(reflecting: objectType).hasPrefix("RealmSwift.")
        else { return nil }
        return objectType
    }
}

/// The Swift runtime's list of every loaded image's metadata sections (`MetadataSections.h`):
/// calls `body` once per image with its sections and `context`, until `body` returns false.
@_silgen_name("swift_enumerateAllMetadataSections")
private func swift_enumerateAllMetadataSections(
    _ body: @convention(c) (_ sections: UnsafeRawPointer, _ context: UnsafeMutableRawPointer) -> Bool,
    _ context: UnsafeMutableRawPointer
)
