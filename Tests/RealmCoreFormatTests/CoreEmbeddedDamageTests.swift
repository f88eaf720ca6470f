import Foundation
@testable import RealmCoreFormat
@testable import RealmEngine
import Testing

/// Embedded objects a Realm file can hold only when damaged (no write makes them): one with two
/// parents, one with none, a link to a missing one, embedded objects owning each other in a
/// cycle. Each is made by rewriting one or two link values of `generated-embedded-chain.realm`
/// (Parent 0 → nodes [items 0–13]; Parent 1 → node a (14) → next b (15); Parent 2 → node c (16),
/// nodes [d (17), e (18)]), and each
/// conversion ends in an error naming the object — never a crash, and never a converted file
/// that differs from what Realm shows.
@Suite struct CoreEmbeddedDamageTests {
    static let name = "generated-embedded-chain.realm"

    /// The fixture with the to-one link `column` of object `key` of `table` rewritten to name
    /// `target` (nil: no link). Realm Core stores a link as key + 1, 0 for none.
    static func patched(_ edits: [(table: String, column: String, key: Int64, target: Int64?)]) throws -> [UInt8] {
        var bytes = try [UInt8](Data(contentsOf: CoreFixtures.url(name)))
        let file = try RealmCoreFile(image: RealmCoreImage(copying: bytes), name: name)
        for edit in edits {
            let table = try #require(file.table(named: edit.table))
            let column = try #require(
                table.columns.first { $0.name == edit.column && $0.type == .link && $0.collection == nil })
            let tree = CoreClusterTree(
                bytes: table.bytes, rootRef: try #require(table.clusterRoot), shift: try table.shift(),
                tableName: table.name)
            let (leaf, index) = try #require(try tree.find(key: edit.key))
            let ref = try #require(try table.bytes.ref(leaf.node, column.leafSlot, "test"))
            let node = try table.bytes.node(ref, "test")
            let stored = UInt64(edit.target.map { $0 + 1 } ?? 0)
            try #require(
                node.widthType == .bits && node.width >= 1
                    && stored < (node.width == 64 ? .max : 1 << UInt64(node.width)),
                "\(edit): \(stored) does not fit a \(node.width)-bit link")
            let bit = index * node.width
            for b in 0..<node.width {
                let offset = node.data + (bit + b) / 8
                let mask = UInt8(1) << UInt8((bit + b) % 8)
                bytes[offset] = (stored >> UInt64(b)) & 1 == 1 ? bytes[offset] | mask : bytes[offset] & ~mask
            }
        }
        return bytes
    }

    /// The fixture with element `index` of the list of links `column` of object `key` of
    /// `table` rewritten to name `target` (a short list is one leaf of the keys as they are).
    static func patchedList(_ table: String, _ column: String, key: Int64, index: Int, target: Int64) throws -> [UInt8]
    {
        var bytes = try [UInt8](Data(contentsOf: CoreFixtures.url(name)))
        let file = try RealmCoreFile(image: RealmCoreImage(copying: bytes), name: name)
        let table = try #require(file.table(named: table))
        let column = try #require(table.columns.first { $0.name == column && $0.collection == .list })
        let tree = CoreClusterTree(
            bytes: table.bytes, rootRef: try #require(table.clusterRoot), shift: try table.shift(),
            tableName: table.name)
        let (leaf, row) = try #require(try tree.find(key: key))
        let lists = try table.bytes.node(try #require(try table.bytes.ref(leaf.node, column.leafSlot, "test")), "test")
        let list = try table.bytes.node(try #require(try table.bytes.ref(lists, row, "test")), "test")
        try #require(
            !list.isInner && list.widthType == .bits && list.width == 8 && index < list.count,
            "a short list in one 8-bit leaf")
        bytes[list.data + index] = UInt8(target)
        return bytes
    }

    /// The conversion of `bytes` into an in-memory Realm, as `copy` and every reading command do.
    static func convert(_ bytes: [UInt8]) throws -> Realm {
        let file = try RealmCoreFile(image: RealmCoreImage(copying: bytes), name: name)
        var conversion = try RealmCoreConversion(file: file)
        let realm = try Realm(
            configuration: .init(inMemoryIdentifier: "embedded-damage-\(UUID().uuidString)", schema: conversion.schema))
        try realm.write { try conversion.copy(into: realm) }
        return realm
    }

    /// The conversion's error, which `check` gives as well.
    static func errors(_ bytes: [UInt8]) throws -> (convert: String, check: String) {
        var convert = ""
        var check = ""
        do { _ = try Self.convert(bytes) } catch let error as RealmError { convert = error.description }
        do {
            let conversion = try RealmCoreConversion(
                file: try RealmCoreFile(image: RealmCoreImage(copying: bytes), name: name))
            _ = try conversion.checkEmbeddedObjects()
        } catch let error as RealmError { check = error.description }
        return (convert, check)
    }

    @Test func theUndamagedFileConverts() throws {
        let realm = try Self.convert(try Self.patched([]))
        #expect(try realm.objects("Parent").filter("node.next.name == 'b'").checkedCount() == 1)
        #expect(try realm.objects("Parent").filter("ANY nodes.name == 'e'").checkedCount() == 1)
        #expect(try realm.checkIntegrity().warnings.isEmpty)
        let conversion = try RealmCoreConversion(
            file: try RealmCoreFile(image: RealmCoreImage(copying: try Self.patched([])), name: Self.name))
        #expect(try conversion.checkEmbeddedObjects() == 19)
        // The rewriting helper changes what it is asked to, and nothing else.
        let file = try RealmCoreFile(
            image: RealmCoreImage(copying: try Self.patched([("class_Node", "next", 15, 99)])), name: Self.name)
        let nodes = try #require(file.table(named: "class_Node"))
        #expect(try nodes.object(key: 15)?.values[1] == .link(tableKey: nodes.key, key: 99))
        #expect(try nodes.object(key: 14)?.values[1] == .link(tableKey: nodes.key, key: 15))
    }

    @Test func anEmbeddedObjectWithTwoParentsIsAnError() throws {
        // Parent 2's node becomes a, which Parent 1 already holds (and c loses its parent).
        let (convert, check) = try Self.errors(try Self.patched([("class_Parent", "node", 2, 14)]))
        #expect(
            convert.contains(
                "embedded object Node 14 has two parents, Parent 1 (through 'node') and Parent 2 (through 'node')"),
            "\(convert)")
        #expect(check == convert)
        // The same object twice in one list (e is lost).
        let twice = try Self.patchedList("class_Parent", "nodes", key: 2, index: 1, target: 17)
        let file = try RealmCoreFile(image: RealmCoreImage(copying: twice), name: Self.name)
        let nodes = try file.table(named: "class_Parent")?.object(key: 2)?.values[2]
        #expect(
            nodes == .list([.link(tableKey: 1, key: 17), .link(tableKey: 1, key: 17)]), "\(String(describing: nodes))")
        let (listed, _) = try Self.errors(twice)
        #expect(
            listed.contains(
                "embedded object Node 17 is held twice by Parent 2 (through 'nodes'); an embedded object has exactly one parent"
            ), "\(listed)")
    }

    @Test func anEmbeddedObjectWithoutAParentIsAnError() throws {
        let (convert, check) = try Self.errors(try Self.patched([("class_Parent", "node", 2, nil)]))
        #expect(convert.contains("embedded object Node 16 has no parent (an orphan)"), "\(convert)")
        #expect(check == convert)
    }

    @Test func aLinkToAMissingEmbeddedObjectIsAnError() throws {
        // b's next names Node 99, which does not exist (no object loses its parent).
        let (convert, check) = try Self.errors(try Self.patched([("class_Node", "next", 15, 99)]))
        #expect(
            convert.contains("Node 15 (through 'next') links to embedded object Node 99, which does not exist"),
            "\(convert)")
        #expect(check == convert)
    }

    @Test func embeddedObjectsOwningEachOtherAreAnError() throws {
        // b's next is a, and Parent 0 no longer holds a: a and b own each other, under no top-level object.
        let (convert, check) = try Self.errors(
            try Self.patched([("class_Node", "next", 15, 14), ("class_Parent", "node", 1, nil)]))
        #expect(convert.contains("own each other in a cycle, with no top-level object above them"), "\(convert)")
        #expect(convert.contains("Node 14") && convert.contains("Node 15"), "\(convert)")
        #expect(check == convert)
        // An embedded object owning itself.
        let selfOwning = try Self.patched([("class_Node", "next", 16, 16), ("class_Parent", "node", 2, nil)])
        let (selfOwned, _) = try Self.errors(selfOwning)
        #expect(selfOwned.contains("embedded objects Node 16 own each other in a cycle"), "\(selfOwned)")
        // Realm Core's dump form (ours) of such a file stops at its nesting bound, with an error.
        #expect(CoreDamageTests.readAll(selfOwning, name: Self.name) != nil)
    }
}
