import JSONStore

/// `jsonstore delete ID...`: deletes items in one batch, every id checked before any file
/// is touched.
struct DeleteCommand: Command {
    static let configuration = CommandConfiguration(
        name: "delete", abstract: "delete items", arguments: "ID...",
        discussion: """
            Deletes the items in one batch under the store's lock: if the command is killed \
            halfway, the next open of the store finishes it. A missing item is reported and \
            makes the exit status 1, and the others are still deleted (like rm and kubectl \
            delete); an invalid id refuses the whole command before any file is touched. \
            With --if-match ETAG (one ID only) the item is deleted only if its etag is still \
            ETAG.
            """,
        options: [.ifMatch],
        positionals: .ids)

    var ids: [String]
    var expected: ItemExpectation?

    init(_ arguments: Arguments) throws(UsageError) {
        guard !arguments.positionals.isEmpty else {
            throw UsageError("delete needs at least one ID", command: "delete")
        }
        ids = arguments.positionals
        expected = try arguments.expectation()
        if expected != nil && ids.count > 1 {
            throw UsageError("--if-match takes one ID", command: "delete")
        }
    }

    func run(_ context: Context) throws {
        for id in ids { try ItemID.validate(id) }
        let store = try context.open()
        var missing: [String] = []
        try store.write { batch in
            missing = []  // the batch runs again if a file changed under it
            if let expected { try batch.expect(ids[0], expected) }
            for id in ids where try !batch.delete(id) {
                missing.append(CommandFailure.noItem(id, in: store.path))
            }
        }
        if !missing.isEmpty { throw CommandFailure(messages: missing) }
    }
}
