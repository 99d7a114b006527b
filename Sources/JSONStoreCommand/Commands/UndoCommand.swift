import JSONStore

/// `jsonstore undo ID [REV]` and `jsonstore undo --op OP`: reverts a change, guarded.
struct UndoCommand: Command {
    static let configuration = CommandConfiguration(
        name: "undo", abstract: "revert a change of an item, or a whole operation",
        arguments: "ID [REV]",
        discussion: """
            Reverts the change made to ID at revision REV (by default its last change, as \
            log shows it) by applying its inverse patch, only where every member that \
            change touched is still as it left them; members it did not touch stay as they \
            are now. Undoing a deletion brings the item back; undoing a creation deletes it. \
            When a member changed since, nothing is written and the members are named \
            (/title changed since 41), exit 1. --op OP reverts every change of one \
            operation (log --ops), in one batch, all or nothing. An undo is itself a new \
            revision, and can be undone.
            """,
        options: [.option("--op", value: "OP", help: "revert every change of operation OP")],
        positionals: .ids)

    var id: String?
    var revision: Int?
    var operation: String?

    init(_ arguments: Arguments) throws(UsageError) {
        operation = arguments.value("--op")
        let words = arguments.positionals
        if operation != nil {
            guard words.isEmpty else {
                throw UsageError("undo --op takes no ID", command: "undo")
            }
            return
        }
        guard (1...2).contains(words.count) else {
            throw UsageError("undo needs an ID, and at most one revision", command: "undo")
        }
        id = words[0]
        if words.count == 2 {
            guard let revision = Int(words[1]), revision > 0 else {
                throw UsageError("undo's revision is a number, as log shows it", command: "undo")
            }
            self.revision = revision
        }
    }

    func run(_ context: Context) throws {
        let store = try context.open()
        if let operation {
            try store.undo(operation: operation)
            return Output.line("undone: operation \(Display.escaped(operation))")
        }
        guard let id else { return }
        try ItemID.validate(id)
        try store.undo(id, revision: revision)
        let now = try store.history(of: id, limit: 1).first.map { " (revision \($0.revision))" }
        Output.line("undone: \(Display.escaped(id))\(now ?? "")")
    }
}
