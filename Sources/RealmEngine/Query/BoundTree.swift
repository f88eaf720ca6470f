/// The type-checked form of a query: key paths resolved to column indices, constants converted
/// to the type they are compared with, string constants folded once.

/// The type of a query operand.
enum QueryType: Equatable, CustomStringConvertible {
    case null, bool, int, float, double, string, data, date, objectId, uuid, decimal128
    /// An object of the class with this index.
    case object(Int)
    /// A Mixed property's value: any of the above, decided per object.
    case mixed

    init(_ type: PropertyType, target: Int?) {
        switch type {
        case .bool: self = .bool
        case .int, .int8, .int16, .int32: self = .int
        case .float: self = .float
        case .double: self = .double
        case .string: self = .string
        case .date: self = .date
        case .data: self = .data
        case .objectId: self = .objectId
        case .uuid: self = .uuid
        case .decimal128: self = .decimal128
        case .object, .linkingObjects: self = .object(target ?? -1)
        case .mixed: self = .mixed
        }
    }

    /// The type of a constant.
    init?(of value: Value) {
        switch value {
        case .null: self = .null
        case .bool: self = .bool
        case .int: self = .int
        case .float: self = .float
        case .double: self = .double
        case .string: self = .string
        case .date: self = .date
        case .data: self = .data
        case .objectId: self = .objectId
        case .uuid: self = .uuid
        case .decimal128: self = .decimal128
        case .link: self = .object(-1)
        case .typedLink: self = .mixed
        case .list, .map: return nil
        }
    }

    var isNumeric: Bool { self == .int || self == .float || self == .double || self == .decimal128 }

    var description: String {
        switch self {
        case .null: "nil"
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .double: "double"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .objectId: "objectId"
        case .uuid: "uuid"
        case .decimal128: "decimal128"
        case .object: "object"
        case .mixed: "mixed"
        }
    }
}

/// `@count`, `@min`, … applied to the values a key path reaches.
enum Aggregate: String {
    case count, min, max, sum, avg
}

/// A key path resolved against the schema.
struct BoundPath {
    /// One step of the walk from an object.
    enum Step: Equatable {
        /// A stored column of `classIndex`: a to-one link or list to walk through, or (last) the value read.
        case column(classIndex: Int, column: Int)
        /// The objects of `originClass` whose `originColumn` links to the current object (of `classIndex`).
        case backlinks(classIndex: Int, originClass: Int, originColumn: Int)
        /// A dictionary column of `classIndex`: its values, its keys, or the value of one key
        /// (nil when the key is missing, as in Realm).
        case map(classIndex: Int, column: Int, part: MapPart)
        /// Into the Mixed value the previous step read (a nested list or dictionary).
        case mixed(MixedStep)
    }
    /// What a `.map` step reads of a dictionary.
    enum MapPart: Equatable {
        case values, keys
        case key(String)
    }
    /// What is done with the values the steps reach.
    enum Postfix: Equatable {
        case none
        /// The length of strings / data (`.length`, `@size` on a string).
        case length
        case aggregate(Aggregate)
        /// `@type`: the value's type, compared with type names (`mixed.@type == 'numeric'`).
        case typeOf
    }

    var steps: [Step]
    /// Whether the steps pass through a list or backlinks (so the path reaches many values).
    var throughCollection: Bool
    var postfix: Postfix
    /// The type of the values the steps reach.
    var elementType: QueryType
    /// The key path as written, for messages.
    var name: String

    /// The classes the path reads.
    var classes: Set<Int> {
        var out = Set<Int>()
        for step in steps {
            switch step {
            case .column(let cls, _): out.insert(cls)
            case .backlinks(let cls, let origin, _): out.formUnion([cls, origin])
            case .map(let cls, _, _): out.insert(cls)
            case .mixed: break
            }
        }
        if case .object(let target) = elementType, target >= 0 { out.insert(target) }
        return out
    }

    /// Whether the expression yields many values (compared with ANY/ALL/NONE).
    var isMulti: Bool {
        if case .aggregate = postfix { return false }
        return throughCollection
    }

    /// The type of the expression's values.
    var type: QueryType {
        switch postfix {
        case .none: elementType
        case .length: .int
        case .typeOf: .string
        case .aggregate(let a):
            switch a {
            case .count: .int
            // Decimals sum and average exactly, as decimals.
            case .avg: elementType == .decimal128 ? .decimal128 : .double
            case .sum: elementType == .int ? .int : (elementType == .decimal128 ? .decimal128 : .double)
            case .min, .max: elementType
            }
        }
    }
}

/// `SUBQUERY(collection, $x, predicate).@count`.
struct BoundSubquery {
    var collection: BoundPath
    var predicate: BoundPredicate
}

/// An operand.
indirect enum BoundExpr {
    case constant(Value)
    /// `{…}` or a list argument (for IN and BETWEEN).
    case constantList([Value])
    case path(BoundPath)
    case subqueryCount(BoundSubquery)

    var isMulti: Bool {
        switch self {
        case .constant, .subqueryCount: false
        case .constantList: true
        case .path(let p): p.isMulti
        }
    }
}

/// A type-checked comparison.
struct BoundComparison {
    var quantifier: Quantifier
    var lhs: BoundExpr
    var op: CompareOp
    var options: StringOptions
    var rhs: BoundExpr
    /// For string operators and `[c]`/`[d]` equality with a constant right side: the folded
    /// needle, computed once per query.
    var needle: [UInt8]?
}

/// A type-checked predicate.
indirect enum BoundPredicate {
    case constant(Bool)
    case and([BoundPredicate])
    case or([BoundPredicate])
    case not(BoundPredicate)
    case compare(BoundComparison)
}
