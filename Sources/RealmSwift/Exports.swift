// The `RealmSwift` module: the typed API (`Object`, `@Persisted`, `Results<T>`, `List<T>`,
// `LinkingObjects<T>`) over the dynamic core, which it re-exports. Its `Realm`, `Results` and
// `Realm.Configuration` shadow the dynamic ones of `RealmEngine`, so RealmSwift code ports with
// an import change; the dynamic API stays reachable as `realm.dynamicRealm` and
// `RealmEngine.Results`.
@_exported import RealmEngine

/// A sort key of a query (Realm's, not Foundation's `SortDescriptor`).
public typealias SortDescriptor = RealmEngine.SortDescriptor
