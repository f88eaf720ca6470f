/// Key paths into Mixed values and `@type` comparisons.
extension Binder {
    /// The step `component` takes into a Mixed value (`[0]`, `[LAST]`, `[*]`, `['k']`, `.k`), or
    /// nil when it is no such step. A position after anything but a single Mixed value is an
    /// error: a list property's elements have no positions in the query language here.
    func mixedStep(_ component: PathComponent, path: BoundPath, prefix: String) throws -> MixedStep? {
        let intoMixed = path.elementType == .mixed && path.postfix == .none && isSingleMixed(path)
        if let position = component.position {
            guard intoMixed else {
                throw RealmError.query(
                    message:
                        "'\(prefix)' is not a Mixed value holding a list or dictionary; \(position.text) needs one",
                    column: component.column)
            }
            switch position {
            case .index(let i): return .index(i)
            case .last: return .last
            case .all: return .all
            }
        }
        guard intoMixed, !component.name.hasPrefix("@") || component.isKey else { return nil }
        return .key(component.name)
    }

    /// Whether the path's last step reads one Mixed value per object reached: a Mixed property
    /// (not a list, set or dictionary of Mixed), one key of a dictionary of Mixed, or a step
    /// into a Mixed value.
    private func isSingleMixed(_ path: BoundPath) -> Bool {
        switch path.steps.last {
        case .column(let cls, let column)?:
            let properties = schema.objectSchemas[cls].persistedProperties
            guard properties.indices.contains(column) else { return false }
            return properties[column].type == .mixed && !properties[column].isCollection
        case .map(_, _, .key)?, .mixed?: return true
        default: return false
        }
    }

    /// An object argument compared with a Mixed value: a link naming the object's class (a
    /// Mixed link carries its class; a bare key would match objects of every class).
    func typedLinkArgument(_ node: ExprNode, _ expr: BoundExpr, against other: BoundExpr) -> BoundExpr {
        guard case .argument(let n, _) = node, let className = objectClasses[n], Binder.type(of: other) == .mixed,
            case .constant(.link(let key)) = expr
        else { return expr }
        return .constant(.typedLink(TypedLink(className: className, key: key)))
    }

    /// `path.@type == 'name'` (also `!=` and `IN {'a', 'b'}`): the names are Realm Core's
    /// (`MixedType`); each constant becomes its type bits, which the evaluator tests.
    func bindTypeComparison(_ node: ComparisonNode, lhs: BoundExpr, rhs: BoundExpr) throws -> BoundComparison? {
        guard case .path(let p) = lhs, p.postfix == .typeOf else {
            if case .path(let p) = rhs, p.postfix == .typeOf {
                throw RealmError.query(
                    message: "write '\(p.name)' on the left: '\(p.name) == \"string\"'", column: node.rhs.column)
            }
            return nil
        }
        guard node.op == .equal || node.op == .notEqual || node.op == .in,
            node.options.isEmpty || node.options == .caseInsensitive
        else {
            throw RealmError.query(
                message: "@type can only be compared with ==, != or IN, not \(node.op.rawValue)", column: node.column)
        }
        func bits(_ value: Value) throws -> Value {
            guard case .string(let name) = value else {
                throw RealmError.query(
                    message:
                        "@type is compared with a type name in quotes ('string', 'numeric', …), not \(value.kindName)",
                    column: node.rhs.column)
            }
            guard let bits = MixedType.bits(named: name) else {
                throw RealmError.query(
                    message: "'\(name)' is not a type name; use one of: \(MixedType.knownNames)",
                    column: node.rhs.column)
            }
            return .int(Int64(bits))
        }
        let converted: BoundExpr
        switch rhs {
        case .constant(let v): converted = .constant(try bits(v))
        case .constantList(let vs): converted = .constantList(try vs.map(bits))
        default:
            throw RealmError.query(
                message: "@type is compared with a type name in quotes ('string', 'numeric', …)",
                column: node.rhs.column)
        }
        return BoundComparison(
            quantifier: node.quantifier ?? .any, lhs: lhs, op: node.op, options: [], rhs: converted, needle: nil)
    }
}
