import Foundation

/// The objects of one class that match a query, typed: `realm.objects(Dog.self).filter("age < 2")`.
///
/// A thin skin over the dynamic core's results (one query description, one evaluator): lazy
/// (building and chaining does no work) and live (each read shows the Realm's current
/// version). `for … in` walks the objects the query held when the loop started, so changing
/// them inside the loop does not skip any.
public struct Results<Element: Object>: RealmCollection, CustomStringConvertible {
    /// The dynamic results this is a view of.
    public let dynamicResults: RealmEngine.Results
    let owner: Realm

    init(_ dynamic: RealmEngine.Results, realm: Realm) {
        dynamicResults = dynamic
        owner = realm
    }

    /// The first position (0).
    public var startIndex: Int { 0 }
    /// The position after the last object (`count`).
    public var endIndex: Int { count }
    /// Number of objects.
    public var count: Int {
        owner.verifyThread()
        return owner.reading { dynamicResults.count }
    }

    /// The object at `position`. A position out of range is a programmer error, as for an
    /// array. When the file cannot be read there (a damaged file), the answer is an unmanaged
    /// object with the class's defaults and `error` is set: check `error`, or use
    /// `element(at:)`, which throws instead, for files you do not trust.
    public subscript(position: Int) -> Element {
        owner.verifyThread()
        do {
            return Element._rlmMake(try owner.reading { try dynamicResults.object(at: position) }, realm: owner)
        } catch let error as RealmError where !error.isMisuse {
            dynamicResults.recordReadError(error)
            return Element()
        } catch {
            preconditionFailure("Results<\(Element.className())>[\(position)]: \(error)")
        }
    }

    public var _rlmResults: Results<Element> { self }

    /// Iterates the objects of the results as the dynamic core's iterator visits them: the
    /// objects in the results when iteration starts (over a filtered, sorted or list result,
    /// its keys then; over a whole class, in key order, skipping objects deleted meanwhile and
    /// not visiting objects created by the loop), so changing objects inside the loop skips none.
    public func makeIterator() -> Iterator {
        owner.verifyThread()
        return Iterator(base: dynamicResults.makeIterator(), realm: owner, info: ClassInfo.of(Element.self))
    }

    /// Iterates the objects, each made when it is reached.
    ///
    /// An object the loop did not keep is recycled for the next one, invisibly: only when
    /// nothing else references it (no strong, weak or unowned reference but the iterator's) and
    /// its class stores nothing but `@Persisted` properties (which a managed object reads from
    /// the Realm, never from itself). So `for dog in dogs { total += dog.age }` makes one
    /// object, and an object that was kept, observed or captured is never touched. (A model
    /// with its own `deinit` sees it run once per object made, which recycling makes rarer.)
    public struct Iterator: IteratorProtocol {
        var iteration: ObjectIteration

        init(base: RealmEngine.Results.Iterator, realm: Realm, info: ClassInfo) {
            iteration = ObjectIteration(base: base, realm: realm, info: info)
        }

        /// The next object, or nil at the end.
        public mutating func next() -> Element? {
            // The work is not generic (`ObjectIteration`): this runs once per object, and
            // unspecialised generic code would look up `Element?`'s metadata each time.
            guard let object = iteration.next() else { return nil }
            return unsafeDowncast(object, to: Element.self)
        }
    }

    /// The first `maxLength` objects, as results: a sorted query then only finds the first
    /// ones instead of sorting everything.
    public func prefix(_ maxLength: Int) -> Results<Element> {
        Results(dynamicResults.limit(maxLength), realm: owner)
    }

    /// The objects, for debugging.
    public var description: String {
        "Results<\(Element.className())>(\(map { String(describing: $0) }.joined(separator: ", ")))"
    }
}

/// A live collection of objects of one class: `Results`, a `List` of objects, or
/// `LinkingObjects`. They share one implementation (the dynamic core's results): filtering,
/// sorting, aggregates, key-value coding and observation are the same for all three.
public protocol RealmCollection: RandomAccessCollection where Index == Int, Element: Object {
    /// The collection as results (the shared implementation).
    var _rlmResults: Results<Element> { get }

    /// Why the last read through a non-throwing member (`count`, a subscript, an aggregate,
    /// iteration) could not read the file, or nil after one that could; a non-nil error means
    /// the answer that came with it (0, nil, an empty object) is not the data (ReadErrors.swift).
    var error: RealmError? { get }

    /// Records the outcome of a read of the collection where `error` reports it (nil: it read).
    func _rlmRecordReadError(_ error: RealmError?)

    /// Called on the collection's thread: what makes this collection again from its results
    /// bound to another instance of its Realm (a queue's, or a frozen one). The function is
    /// called in that instance's context and captures no value confined to this thread.
    func _rlmRebinder() -> (Results<Element>) -> Self
}

extension RealmCollection {
    public var error: RealmError? { _rlmResults.error }
    public func _rlmRecordReadError(_ error: RealmError?) {
        let results = _rlmResults
        results.owner.reading { results.dynamicResults.recordReadError(error) }
    }

    /// The Realm managing the collection.
    public var realm: Realm? { _rlmResults.owner }

    /// Whether the collection can no longer be read: a list, linking objects (or results
    /// built on them) whose object was deleted. The objects of a class never are.
    public var isInvalidated: Bool {
        let results = _rlmResults
        return results.owner.reading { results.dynamicResults.isInvalidated }
    }

    /// The objects matching a predicate in Realm's query language, with NSPredicate-style
    /// arguments: `%@` a value, `%K` a property name, `%d`/`%f` numbers, or `$0`, `$1`.
    /// A predicate that does not parse or names no property is a programmer error and stops with
    /// its message; use `filter(query:_:)` for predicates you do not control.
    public func filter(_ predicate: String, _ args: Any...) -> Results<Element> {
        do { return try filter(query: predicate, arguments: args) } catch {
            preconditionFailure("filter(\"\(predicate)\"): \(error)")
        }
    }

    /// `filter(_:_:)` that throws `RealmError.query` instead of stopping.
    public func filter(query predicate: String, _ args: Any...) throws -> Results<Element> {
        try filter(query: predicate, arguments: args)
    }

    /// `filter(query:_:)` with an argument array.
    public func filter(query predicate: String, arguments args: [Any]) throws -> Results<Element> {
        let base = _rlmResults
        let converted = try PredicateFormat.convert(predicate, args)
        let text = MappedNames.predicate(converted.text, from: Element.self)
        return Results(
            try base.dynamicResults.filter(
                text, arguments: converted.values,
                objectClasses: converted.objectClasses), realm: base.owner)
    }

    /// Sorted by one property. A collection already sorted keeps its order for ties (Realm
    /// Core's rule: the new sort is most significant).
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// Sorted by several properties, the first most significant; earlier sorts break ties.
    ///
    /// Sorting is by properties of the object and of its to-one links (`"owner.name"`). A key
    /// path naming no property, a link itself (`"owner"`), a list or linking objects is a
    /// programmer error, as in RealmSwift, and stops with a message naming it.
    public func sorted(by descriptors: [SortDescriptor]) -> Results<Element> {
        let base = _rlmResults
        let stored = descriptors.map {
            SortDescriptor(keyPath: MappedNames.path($0.keyPath, from: Element.self), ascending: $0.ascending)
        }
        do {
            return Results(try base.owner.reading { try base.dynamicResults.sorted(by: stored) }, realm: base.owner)
        } catch {
            preconditionFailure("sorted(by: \(descriptors.map(\.keyPath))): \(orderingMessage(error))")
        }
    }

    /// Sorted by a property given as a key path (`\.age`), also through to-one links
    /// (`\.owner?.name`).
    public func sorted<V>(by keyPath: KeyPath<Element, V>, ascending: Bool = true) -> Results<Element> {
        sorted(byKeyPath: propertyName(keyPath), ascending: ascending)
    }

    /// The first object of each distinct combination of the properties' values. The key paths
    /// follow `sorted(by:)`'s rule: a link, a list or a missing property stops with a message.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        let base = _rlmResults
        let paths = Array(keyPaths)
        let stored = MappedNames.paths(paths, from: Element.self)
        do {
            return Results(try base.owner.reading { try base.dynamicResults.distinct(by: stored) }, realm: base.owner)
        } catch {
            preconditionFailure("distinct(by: \(paths)): \(orderingMessage(error))")
        }
    }

    /// The position of an object, or nil.
    public func index(of object: Element) -> Int? {
        guard let accessor = object.accessor else { return nil }
        let results = _rlmResults
        return results.owner.reading {
            let position = results.dynamicResults.index(of: accessor)
            // `results` may be made for this call (a list's): the reason goes where `error` is read.
            _rlmRecordReadError(results.dynamicResults.error)
            return position
        }
    }

    /// The position of the first object matching a predicate, or nil when none matches. A
    /// predicate that does not parse or names no property is a programmer error and stops with
    /// its message, as `filter(_:_:)` does (never nil, which would read as "no match").
    public func index(matching predicate: String, _ args: Any...) -> Int? {
        let matching: Results<Element>
        do {
            matching = try filter(query: predicate, arguments: args)
        } catch {
            preconditionFailure("index(matching: \"\(predicate)\"): \(error)")
        }
        guard let first = matching.first else {
            _rlmRecordReadError(matching.error)
            return nil
        }
        return index(of: first)
    }

    // MARK: Aggregates

    /// One aggregate, through the non-throwing surface: a misuse of the API (a misspelled or
    /// non-numeric property) stops with a message; a failure of the data (a damaged file, a
    /// total `T` cannot hold) answers `empty` with the reason in `error`, as `count` does.
    private func aggregate<T>(_ name: String, empty: T, _ checked: () throws -> T) -> T {
        do {
            let answer = try checked()
            _rlmRecordReadError(nil)
            return answer
        } catch let error as RealmError where !error.isMisuse {
            _rlmRecordReadError(error)
            return empty
        } catch {
            preconditionFailure("\(name): \(error)")
        }
    }

    /// One aggregate of the throwing surface, read on the Realm's thread.
    private func checkedAggregate<T>(_ body: (RealmEngine.Results) throws -> T) throws -> T {
        let owner = _rlmResults.owner
        owner.verifyThread()
        return try owner.reading { try body(_rlmResults.dynamicResults) }
    }

    /// The smallest value of a property, or nil when the collection is empty. When the file
    /// cannot be read, nil with the reason in `error`; `checkedMin(ofProperty:)` throws instead.
    public func min<V: _RealmScalar>(ofProperty property: String) -> V? {
        aggregate("min(ofProperty: \(property))", empty: nil) { try checkedMin(ofProperty: property) }
    }

    /// The smallest value of a property, or nil when the collection is empty; throws when the
    /// file cannot be read or holds a smallest value `V` cannot represent.
    public func checkedMin<V: _RealmScalar>(ofProperty property: String) throws -> V? {
        try checkedAggregate {
            try Self.converted($0.min(ofProperty: MappedNames.path(property, from: Element.self)), property)
        }
    }

    /// The largest value of a property, or nil when the collection is empty. When the file
    /// cannot be read, nil with the reason in `error`; `checkedMax(ofProperty:)` throws instead.
    public func max<V: _RealmScalar>(ofProperty property: String) -> V? {
        aggregate("max(ofProperty: \(property))", empty: nil) { try checkedMax(ofProperty: property) }
    }

    /// The largest value of a property, or nil when the collection is empty; throws when the
    /// file cannot be read or holds a largest value `V` cannot represent.
    public func checkedMax<V: _RealmScalar>(ofProperty property: String) throws -> V? {
        try checkedAggregate {
            try Self.converted($0.max(ofProperty: MappedNames.path(property, from: Element.self)), property)
        }
    }

    /// `value` as a `V`; nil only for no value, since nil would read as an empty collection.
    /// A `V` of another kind than the property's (an `Int` asked of a `Double`) is a misuse; a
    /// value of the right kind that `V` cannot represent (an enum's unknown raw value, a number
    /// too wide) is a failure of the data.
    private static func converted<V: _RealmScalar>(_ value: RealmEngine.Value?, _ property: String) throws -> V? {
        guard let value else { return nil }
        if let converted = V(_rlmValue: value) { return converted }
        try requireKind(of: value, as: V.self, property)
        throw unrepresentable(value, as: V.self, at: "\(Element.className()).\(property)")
    }

    /// Throws the misuse of asking for `V` when the property's values are of another kind
    /// (an `Int` of a `Double` property); returns when `value` is of `V`'s kind.
    private static func requireKind<V: _RealmScalar>(of value: RealmEngine.Value, as _: V.Type, _ property: String)
        throws
    {
        guard value.kindName == V._rlmZero._rlmValue.kindName else {
            throw RealmError.typeMismatch(
                className: Element.className(), property: property, expected: "\(V.self)", got: value.kindName)
        }
    }

    /// The sum of a numeric property (0 for an empty collection), as a `V`.
    ///
    /// The sum is computed in 64 bits; `V` need not be the property's type, so the total of
    /// an `Int8`, `Int16` or `Int32` property can be asked for as an `Int`:
    /// `let total: Int = dogs.sum(ofProperty: "age")`. A total that does not fit `V` is not
    /// answered wrapped or clamped: the answer is 0 with the reason in `error`, as for a file
    /// that cannot be read. `checkedSum(ofProperty:)` throws instead.
    public func sum<V: _RealmScalar>(ofProperty property: String) -> V {
        aggregate("sum(ofProperty: \(property))", empty: V._rlmZero) { try checkedSum(ofProperty: property) }
    }

    /// The sum of a numeric property as a `V`; throws when the file cannot be read or the total
    /// does not fit `V`.
    public func checkedSum<V: _RealmScalar>(ofProperty property: String) throws -> V {
        let total = try checkedAggregate { try $0.sum(ofProperty: MappedNames.path(property, from: Element.self)) }
        guard let sum = V(_rlmValue: total) else {
            try Self.requireKind(of: total, as: V.self, property)
            throw RealmError.invalidInput(
                "the sum \(total) does not fit in \(V.self); ask for a wider type: "
                    + "let total: Int = sum(ofProperty: \"\(property)\")")
        }
        return sum
    }

    /// The average of a numeric property, or nil when the collection is empty. When the file
    /// cannot be read, nil with the reason in `error`; `checkedAverage(ofProperty:)` throws.
    public func average(ofProperty property: String) -> Double? {
        aggregate("average(ofProperty: \(property))", empty: nil) { try checkedAverage(ofProperty: property) }
    }

    /// The average of a numeric property, or nil when the collection is empty; throws when the
    /// file cannot be read.
    public func checkedAverage(ofProperty property: String) throws -> Double? {
        try checkedAggregate { try $0.average(ofProperty: MappedNames.path(property, from: Element.self)) }
    }

    /// The smallest value of a property given as a key path.
    public func min<V: _RealmScalar>(of keyPath: KeyPath<Element, V>) -> V? { min(ofProperty: propertyName(keyPath)) }
    /// The largest value of a property given as a key path.
    public func max<V: _RealmScalar>(of keyPath: KeyPath<Element, V>) -> V? { max(ofProperty: propertyName(keyPath)) }
    /// The sum of a property given as a key path, as the property's type (as in RealmSwift).
    /// A total of an `Int8`, `Int16` or `Int32` property that its type cannot hold answers 0
    /// with the reason in `error`; ask `sum(ofProperty:)` for an `Int` where it may not fit.
    public func sum<V: _RealmScalar>(of keyPath: KeyPath<Element, V>) -> V { sum(ofProperty: propertyName(keyPath)) }
    /// The average of a property given as a key path.
    public func average<V: _RealmScalar>(of keyPath: KeyPath<Element, V>) -> Double? {
        average(ofProperty: propertyName(keyPath))
    }
    /// The exact average of a `Decimal128` property (the exact sum divided once, as RealmSwift
    /// answers a decimal average with a decimal), or nil when the collection is empty; when the
    /// file cannot be read, nil with the reason in `error`.
    public func average(of keyPath: KeyPath<Element, Decimal128>) -> Decimal128? {
        let property = propertyName(keyPath)
        return aggregate("average(of: \(property))", empty: nil) { try checkedDecimalAverage(ofProperty: property) }
    }

    /// The exact average of a `Decimal128` property, or nil when the collection is empty;
    /// throws when the file cannot be read.
    public func checkedDecimalAverage(ofProperty property: String) throws -> Decimal128? {
        guard
            let average = try checkedAggregate({
                try $0.averageValue(ofProperty: MappedNames.path(property, from: Element.self))
            })
        else { return nil }
        guard case .decimal128(let decimal) = average else {
            throw RealmError.typeMismatch(
                className: "\(Element.self)", property: property, expected: "decimal128", got: average.kindName)
        }
        return decimal
    }

    // MARK: Key-value coding

    /// Each object's value of a property, in order.
    public func value(forKey key: String) -> [Any] { map { $0.value(forKey: key) ?? NSNull() } }
    /// `value(forKey:)`.
    public func value(forKeyPath keyPath: String) -> [Any] { value(forKey: keyPath) }

    /// Sets a property of every object (inside a write transaction), in one pass over the results.
    public func setValue(_ value: Any?, forKey key: String) {
        let results = _rlmResults
        let realm = results.owner
        realm.refuseFrozenWrite()
        precondition(realm.isInWriteTransaction, "Cannot modify managed objects outside of a write transaction.")
        if Element.self == DynamicObject.self {
            // No model to convert by: each object converts by its stored class.
            for object in Array(self) { object[key] = value }
            return
        }
        let info = ClassInfo.of(Element.self)
        let name = info.storedNames[key] ?? key
        guard let type = info.valueTypes[name] else {
            preconditionFailure("\(Element.className()) has no property '\(key)'")
        }
        do {
            guard let input = try type._rlmInput(fromAny: value ?? NSNull(), realm: realm) else { return }
            try results.dynamicResults.setValue(input, forKey: name)
        } catch {
            realm.record(error)
        }
    }
    /// `setValue(_:forKey:)`.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) { setValue(value, forKey: keyPath) }
}

/// A type-erased `RealmCollection`: a property that can hold a `Results`, a `List` or a
/// `LinkingObjects` of the same class.
public struct AnyRealmCollection<Element: Object>: RealmCollection {
    private let results: Results<Element>

    /// Wraps a collection.
    public init<C: RealmCollection>(_ base: C) where C.Element == Element {
        results = base._rlmResults
    }

    /// The first position (0).
    public var startIndex: Int { 0 }
    /// The position after the last object.
    public var endIndex: Int { results.count }
    /// The object at `position`.
    public subscript(position: Int) -> Element { results[position] }
    public var _rlmResults: Results<Element> { results }
}

/// The text of a refused sort or distinct key path: the query error's message without its
/// column (there is no query text to point into).
private func orderingMessage(_ error: Error) -> String {
    if case RealmError.query(let message, _) = error { return message }
    return "\(error)"
}

/// The property name a key path reads (`\Dog.age` → `"age"`), found by reading it from a
/// prototype that records property reads; through to-one links, the path of names
/// (`\Dog.owner?.name` → `"owner.name"`, see `tracingLink`). A list names itself (`\.dogs`).
func propertyName<T: Object>(_ keyPath: PartialKeyPath<T>) -> String {
    let prototype = T()
    let tracer = KeyPathTracer()
    prototype.tracer = tracer
    _ = prototype[keyPath: keyPath]
    guard !tracer.names.isEmpty else { preconditionFailure("\(keyPath) does not name a @Persisted property") }
    return tracer.names.joined(separator: ".")
}

/// What a traced prototype's to-one link (`Value` is `Optional<SomeObject>`) reads as: a
/// prototype of the linked class recording into the same tracer, so the rest of a key path
/// through the link (`\.owner?.name`, `\.owner?.home?.city`) is recorded too. Nil for every
/// other property (a list or `LinkingObjects` names itself only), which then reads as its
/// unmanaged value.
func tracingLink<Value: _Persistable>(_ type: Value.Type, _ tracer: KeyPathTracer) -> Value? {
    guard Value.self is ExpressibleByNilLiteral.Type, let linked = Value._rlmLinkedType else { return nil }
    let prototype = linked.init()
    prototype.tracer = tracer
    return prototype as? Value
}

/// The objects of results as typed objects of `info`'s class, made when reached, an object
/// nobody holds any more recycled for the next one (see `Results.Iterator`).
struct ObjectIteration {
    var base: RealmEngine.Results.Iterator
    let realm: Realm
    let info: ClassInfo
    /// The last object handed out, recycled if nobody else holds it.
    private var last: Object?

    init(base: RealmEngine.Results.Iterator, realm: Realm, info: ClassInfo) {
        self.base = base
        self.realm = realm
        self.info = info
    }

    mutating func next() -> Object? {
        // Without `reading`'s closure unless frozen.
        switch realm.frozen ? realm.reading({ base.nextAccessor() }) : base.nextAccessor() {
        case .some(let accessor):
            if info.isRecyclable, var previous = last.take() {
                if isKnownUniquelyReferenced(&previous), _getWeakRetainCount(previous) <= 1,
                    _getUnownedRetainCount(previous) <= 1
                {
                    previous.recycle(as: consume accessor)
                    last = previous
                    return previous
                }
            }
            let made = info.type._rlmMake(consume accessor, realm: realm, info: info)
            if info.isRecyclable { last = made }
            return made
        case .none:
            last = nil
            return nil
        }
    }
}
