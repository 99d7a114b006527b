import JSONStore

/// `jsonstore delete ID...`: deletes items, every id checked before any file is touched.
struct DeleteCommand: Command {
    static let configuration = CommandConfiguration(
        name: "delete", abstract: "delete items", arguments: "ID...",
        discussion: """
            Deletes the items. Every id is checked before any file is touched; a missing item \
            is reported and makes the exit status 1, and the others are still deleted.
            """,
        positionals: .ids)

    var ids: [String]

    init(_ arguments: Arguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else {
            throw UsageError("delete needs at least one ID", command: "delete")
        }
        ids = arguments.positionals
    }

    func run(_ context: Context) throws {
        for id in ids { try ItemID.validate(id) }
        let store = try context.open()
        var missing: [String] = []
        for id in ids where try !store.delete(id) {
            missing.append(CommandFailure.noItem(id, in: store.path))
        }
        if !missing.isEmpty { throw CommandFailure(messages: missing) }
    }
}
