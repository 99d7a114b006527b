import JSONStore

/// `jsonstore set ID FIELD=STRING | FIELD:=JSON ...`: changes members under the lock.
struct SetCommand: Command {
    static let configuration = CommandConfiguration(
        name: "set", abstract: "change members (creates the item if missing)",
        arguments: "ID FIELD=STRING|FIELD:=JSON...",
        discussion: """
            Changes members of the item ID, creating it if missing: FIELD=text sets a string, \
            FIELD:=json sets any JSON value (FIELD:=3, FIELD:=true, FIELD:='["a"]'). The \
            read-modify-write holds the store's lock, so no concurrent update is lost.
            """,
        positionals: .idThenText)

    var id: String
    /// The members to set, in the order given.
    var changes: [(field: String, value: JSONValue)] = []

    init(_ arguments: Arguments) throws(UsageError) {
        guard let id = arguments.positionals.first else {
            throw UsageError("set needs an ID", command: "set")
        }
        self.id = id
        let assignments = arguments.positionals.dropFirst()
        guard !assignments.isEmpty else {
            throw UsageError("set needs FIELD=STRING or FIELD:=JSON", command: "set")
        }
        for assignment in assignments {
            changes.append(try Self.assignment(assignment))
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
        try context.open().update(id, orCreate: [:]) { object in
            for (field, value) in changes { object[field] = value }
        }
    }
}
