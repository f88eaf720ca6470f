import CShims
import Foundation

// Fast access to the `@Persisted` storage of an object without `Mirror`.
//
// `Mirror` demangles each field's type and boxes each value on every call: tens of
// microseconds per object, which would make `add` and reading results far slower than the
// dynamic API. So, once per class, the prototype's storage boxes are found by `Mirror` and then
// located in the instance's memory (each `Persisted` begins with its box reference, stored
// inline in the object): every later object of exactly that class reads its boxes at those
// offsets. RealmSwift does the same through the Objective-C runtime's ivar offsets. When the
// offsets cannot be established (an allocator that does not tell a block's size, a layout where a
// box is not found exactly once), everything goes through `Mirror` as before.

/// Typed operations on one property's storage box, given as a raw pointer.
protocol BoxAccess {
    func unmanagedInput(_ box: UnsafeRawPointer, for realm: Realm?) -> ObjectInput?
    func managedInput(_ object: Object, _ name: String, for realm: Realm?) -> ObjectInput?
    func links(_ box: UnsafeRawPointer) -> [Object]
    func setName(_ box: UnsafeRawPointer, _ name: String)
    var isLinkingObjects: Bool { get }
}

struct TypedBoxAccess<V: _Persistable>: BoxAccess {
    @inline(__always)
    private func box(_ p: UnsafeRawPointer) -> PersistedBox<V> { Unmanaged<PersistedBox<V>>.fromOpaque(p).takeUnretainedValue() }
    func unmanagedInput(_ p: UnsafeRawPointer, for realm: Realm?) -> ObjectInput? { box(p).value._rlmInput(for: realm) }
    func managedInput(_ object: Object, _ name: String, for realm: Realm?) -> ObjectInput? {
        V._rlmGet(object, name)._rlmInput(for: realm)
    }
    func links(_ p: UnsafeRawPointer) -> [Object] { box(p).value._rlmLinkedObjects() }
    func setName(_ p: UnsafeRawPointer, _ name: String) { box(p).name = name }
    var isLinkingObjects: Bool { V.self is any _LinkingObjectsMarker.Type }
}

/// One `@Persisted` property of one live object.
struct FieldHandle {
    let name: String
    /// The property's storage box (valid while the object is).
    let box: UnsafeRawPointer
    let access: any BoxAccess
}

/// Where a class's `@Persisted` boxes are in its instances.
struct FieldLayout {
    let names: [String]
    let offsets: [Int]
    let accesses: [any BoxAccess]

    /// Finds the boxes of `prototype` in its memory; nil when that is not possible.
    init?(prototype: Object, children: [(String, any AnyPersisted)]) {
        let base = UnsafeRawPointer(Unmanaged.passUnretained(prototype).toOpaque())
        let size = cshims_allocation_size(base)
        guard size >= 16 else { return nil }
        var offsets: [Int] = []
        for (_, p) in children {
            let target = UnsafeRawPointer(Unmanaged.passUnretained(p.anyBox).toOpaque())
            var found: [Int] = []
            var offset = 16
            while offset + 8 <= size {
                if base.load(fromByteOffset: offset, as: UnsafeRawPointer?.self) == target { found.append(offset) }
                offset += 8
            }
            guard found.count == 1 else { return nil }
            offsets.append(found[0])
        }
        names = children.map(\.0)
        self.offsets = offsets
        accesses = children.map { $0.1.boxAccess }
    }
}

extension AnyPersisted {
    var boxPointer: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(anyBox).toOpaque()) }
}

extension Object {
    /// The `@Persisted` properties of this object, superclass first.
    func fieldHandles() -> [FieldHandle] {
        let info = ClassInfo.of(type(of: self))
        if let layout = info.fieldLayout {
            let base = UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())
            var handles: [FieldHandle] = []
            handles.reserveCapacity(layout.offsets.count)
            for i in layout.offsets.indices {
                guard let box = base.load(fromByteOffset: layout.offsets[i], as: UnsafeRawPointer?.self) else {
                    return mirroredHandles()
                }
                handles.append(FieldHandle(name: layout.names[i], box: box, access: layout.accesses[i]))
            }
            return handles
        }
        return mirroredHandles()
    }

    private func mirroredHandles() -> [FieldHandle] {
        persistedChildren(of: self).map { FieldHandle(name: $0.0, box: $0.1.boxPointer, access: $0.1.boxAccess) }
    }

    /// Gives every storage box its property name (a managed object's reads then need no lookup).
    func nameFields() {
        for f in fieldHandles() { f.access.setName(f.box, f.name) }
    }
}
