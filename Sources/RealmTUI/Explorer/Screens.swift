import RealmEngine

/// The class list: every class with its count, the selected one's properties as a preview.
struct ClassesScreen {
    var cursor = 0
    var top = 0
    /// Classes whose name contains this text (case-insensitive) are listed.
    var filter = ""
    /// Whether Tab moved the focus to the schema preview (j/k then scroll it).
    var previewFocused = false
    var previewTop = 0
}

/// A table of objects: a class, a list of objects or the objects linking to one.
///
/// Holds a live `Results` and reads only the visible window from it, so a class of 10,000,000
/// objects opens as fast as one of ten.
struct TableScreen {
    /// The breadcrumb step: a class name, or a list or linking-objects property name.
    var crumb: String
    var schema: ObjectSchema
    /// The objects before the user's query and sort.
    var base: Results
    /// The last query that worked ("" for none).
    var query = ""
    /// The order set with `s`/`S` (or a header click), applied after the query's own SORT (so
    /// it is the most significant key); a query with a SORT run later clears it.
    var sort: RealmEngine.SortDescriptor?
    /// The most significant key of the order the table shows (the column sort, else the
    /// query's SORT): what the header's arrow marks.
    var shownSort: RealmEngine.SortDescriptor? { rows.results.sortDescriptors.first }
    /// `base` with the query and sort applied: what the table shows, a window at a time.
    var rows: TableRows
    var cursorRow = 0
    var topRow = 0
    /// The property under the cursor (an index into `schema.properties`).
    var cursorColumn = 0
    /// The property under the cursor; nil for a class without properties (a schema may hold one).
    var cursorProperty: Property? {
        schema.properties.indices.contains(cursorColumn) ? schema.properties[cursorColumn] : nil
    }
    /// The first property shown after the primary key (horizontal scroll).
    var leftColumn = 0
    /// The object under the cursor, so a change set can keep the cursor on it.
    var cursorKey: ObjectKey?
    /// Rows that live updates marked (inserted or modified), until a time.
    var marks: [ObjectKey: RowMark] = [:]

    init(crumb: String, schema: ObjectSchema, base: Results) {
        self.crumb = crumb
        self.schema = schema
        self.base = base
        rows = TableRows(results: base, counted: base)
    }
}

/// A live update's mark on a row: `+` inserted, `~` modified, shown for a few seconds.
struct RowMark: Equatable {
    enum Kind: Equatable { case inserted, modified }
    var kind: Kind
    /// When the mark fades (seconds on the state's clock).
    var until: Double
    /// A modified row's properties (indices into the schema's) whose values changed: their cells
    /// are highlighted. Empty when they are not known (the row was not on screen before).
    var cells: Set<Int> = []
}

/// A property of a detail view's object that a commit changed while the view was open.
struct DetailChange {
    /// The value before the change (nil: it could not be read).
    var was: Value?
    /// The value before as shown, when the value alone would not show it (a property holding
    /// embedded objects: what changed is inside them, the links stay).
    var wasText: String? = nil
    /// Until when the property is highlighted (seconds on the state's clock); its `was:` line
    /// stays while the view is open.
    var until: Double
}

/// Every property of one object, one per line, full values wrapped.
struct DetailScreen {
    var crumb: String
    var object: DynamicObject
    /// The property under the cursor (an index into the schema's properties).
    var cursor = 0
    /// The first screen line shown (wrapped lines scroll).
    var topLine = 0
    /// Where the object was opened from when not from the screen below (`v7 Book`: the changes
    /// pane), shown before its name in the breadcrumb.
    var origin: String?
    /// The version in which the object was found deleted (live updates).
    var deletedInVersion: UInt64?
    /// The object's values (per property, as `TableRows.values(of:)`) just before the Realm last
    /// moved, compared after the move to find what changed.
    var shownValues: [Value?]?
    /// The properties (indices into the schema's) that commits changed since the view opened,
    /// with their values before the last change.
    var changes: [Int: DetailChange] = [:]
    /// Where the cursor is within property `cursor`: empty on the property's own row, else the
    /// nested row (an embedded object's field, a list element, a dictionary entry).
    var cursorPath: [NestedStep] = []
    /// The rows whose nested rows are shown (space toggles).
    var expanded: Set<DetailRowID> = []
    /// Nested rows that commits changed while the view was open, until when they are marked.
    var nestedMarks: [DetailRowID: Double] = [:]
    /// Every row's text with everything expanded (`DetailLayout.snapshot`) just before the Realm
    /// last moved: a change inside an embedded object is found by comparing it after the move.
    var shownTree: [DetailRowID: String]?
    /// The row under the cursor.
    var cursorRow: DetailRowID {
        get { DetailRowID(property: cursor, path: cursorPath) }
        set {
            cursor = newValue.property
            cursorPath = newValue.path
        }
    }
    /// The last layout made, for the version, width and changes it was made for.
    let layouts = LayoutMemo<DetailLayout.Key, DetailLayout>()
}

/// The values of a list of primitives, the entries of a dictionary (`key → value` rows), or a
/// list or dictionary nested in a Mixed value (`path` steps into it).
struct ValuesScreen {
    var crumb: String
    var object: DynamicObject
    var property: Property
    /// The steps from the property's value to the collection shown (empty: the property's own).
    var path: [MixedStep] = []
    var cursor = 0
    var top = 0
}

/// One step of the navigation stack.
enum Screen {
    case classes(ClassesScreen)
    case table(TableScreen)
    case detail(DetailScreen)
    case values(ValuesScreen)

    var kind: ScreenKind {
        switch self {
        case .classes: .classes
        case .table: .table
        case .detail: .detail
        case .values: .values
        }
    }

    /// The breadcrumb step (nil for the class list, the root).
    var crumb: String? {
        switch self {
        case .classes: nil
        case .table(let t): t.crumb
        case .detail(let d): d.crumb
        case .values(let v): v.crumb
        }
    }
}
