import JSONStore

/// `jsonstore set ID FIELD=STRING | FIELD:=JSON ...`: changes members under the lock.
struct SetCommand: Command {
    static let configuration = CommandConfiguration(
        name: "set", abstract: "change members (creates the item if missing)",
        arguments: "ID FIELD=STRING|FIELD:=JSON...",
        discussion: """
            Changes members of the item ID, creating it if missing: FIELD=text sets a string, \
            FIELD:=json sets any JSON value (FIELD:=3, FIELD:=true, FIELD:='["a"]'). A dotted \
            FIELD is a path into nested objects, as --where reads it: owner.name=zed sets the \
            member name of the object owner, creating objects on the way (a member on the \
            way that is not an object is an error); an item that has a top-level member \
            named owner.name has that one set, as --where reads it. To add a member whose \
            name holds a dot, use put. The read-modify-write holds the store's lock, so no concurrent update \
            is lost. With --if-match ETAG the change is made only if the item's etag is still \
            ETAG (otherwise exit 1, nothing written).
            """,
        options: [.ifMatch],
        positionals: .idThenText)

    var id: String
    /// The members to set, in the order given: each a path of member names.
    var changes: [(path: [String], value: JSONValue)] = []
    var expected: ItemExpectation?

    init(_ arguments: Arguments) throws(UsageError) {
        guard let id = arguments.positionals.first else {
            throw UsageError("set needs an ID", command: "set")
        }
        self.id = id
        expected = try arguments.expectation()
        let assignments = arguments.positionals.dropFirst()
        guard !assignments.isEmpty else {
            throw UsageError("set needs FIELD=STRING or FIELD:=JSON", command: "set")
        }
        for assignment in assignments {
            let (field, value) = try Self.assignment(assignment)
            let path = field.split(separator: ".", omittingEmptySubsequences: false).map(
                String.init)
            guard !path.contains(where: \.isEmpty) else {
                throw UsageError(
                    "'\(Display.escaped(field))' has an empty member name (a dotted FIELD is a path: owner.name)",
                    command: "set")
            }
            changes.append((path, value))
        }
    }

    /// `FIELD=text` as a string member, `FIELD:=json` as any value.
    static func assignment(_ text: String) throws(UsageError) -> (field: String, value: JSONValue) {
        let (name, rest) = Arguments.split(text)
        var field = name
        guard let rest else {
            throw UsageError(
                "'\(Display.escaped(text))' is not FIELD=STRING or FIELD:=JSON", command: "set")
        }
        var value = JSONValue.string(rest)
        if field.hasSuffix(":") {
            field.removeLast()
            do {
                value = try JSONReader().read(rest)
            } catch {
                throw UsageError(
                    "\(Display.escaped(field)):=\(Display.escaped(rest)): \(error.reason)",
                    command: "set")
            }
        }
        guard !field.isEmpty else {
            throw UsageError("'\(Display.escaped(text))' has no FIELD", command: "set")
        }
        return (field, value)
    }

    func run(_ context: Context) throws {
        try ItemID.validate(id)
        try context.open().write { tx in
            if let expected { try tx.expect(id, expected) }
            try update(tx)
        }
    }

    /// Makes the changes in `tx`.
    private func update(_ tx: Transaction) throws {
        try tx.update(id, orCreate: [:]) { object in
            for (path, value) in changes {
                // A top-level member named with the dots itself is the one --where reads.
                let literal = path.joined(separator: ".")
                if path.count > 1, object[literal] != nil {
                    object[literal] = value
                } else {
                    try Self.set(value, at: path[...], in: &object, path)
                }
            }
        }
    }

    /// Sets the member at `path` in `object`, creating the objects on the way.
    ///
    /// - Throws: `CommandFailure` when a member on the way is not an object.
    static func set(
        _ value: JSONValue, at path: ArraySlice<String>, in object: inout JSONObject,
        _ whole: [String]
    ) throws(CommandFailure) {
        let name = path.first!
        guard path.count > 1 else {
            object[name] = value
            return
        }
        var inner: JSONObject
        switch object[name] {
        case nil: inner = [:]
        case .object(let existing)?: inner = existing
        case let other?:
            let reached = whole[..<(whole.count - path.count + 1)].joined(separator: ".")
            throw CommandFailure(
                "cannot set \(Display.escaped(whole.joined(separator: "."))): \(Display.escaped(reached)) is \(other == .null ? "null" : other.typeName.withArticle), not an object"
            )
        }
        try set(value, at: path.dropFirst(), in: &inner, whole)
        object[name] = .object(inner)
    }
}

extension String {
    /// "a string", "an array": the type name with its indefinite article.
    fileprivate var withArticle: String {
        (first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + self
    }
}
