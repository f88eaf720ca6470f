import RealmEngine

/// Adds one to the shared counter (`Counter` with primary key 0) inside the current write
/// transaction, creating it at 1 the first time; returns the new value.
@discardableResult
func addOneToCounter(in realm: Realm) throws -> Int64 {
    guard let counter = try realm.object(ofType: "Counter", forPrimaryKey: .int(0)) else {
        try realm.create("Counter", ["id": .int(0), "value": .int(1)])
        return 1
    }
    guard case .int(let value) = try counter.value(forKey: "value") else { fail("counter is not an int") }
    try counter.setValue(.int(value + 1), forKey: "value")
    return value + 1
}

/// One increment of the shared counter in its own write transaction.
func incrementCounter(in realm: Realm) throws {
    try realm.write { try addOneToCounter(in: realm) }
}
