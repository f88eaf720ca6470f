// The `RealmSwift` module: the typed API (`Object`, `@Persisted`, `Results<T>`, `List<T>`,
// `LinkingObjects<T>`) over the dynamic core, which it re-exports. Its `Realm`, `Results`,
// `Realm.Configuration` and `DynamicObject` (an `Object` read by property name, as Realm Swift's)
// shadow the dynamic ones of `RealmEngine`, so RealmSwift code ports with an import change; the
// engine's API stays reachable as `realm.dynamicRealm`, `RealmEngine.Results` and
// `RealmEngine.DynamicObject`.
@_exported import RealmEngine

/// A sort key of a query (Realm's, not Foundation's `SortDescriptor`).
public typealias SortDescriptor = RealmEngine.SortDescriptor
