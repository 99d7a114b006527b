import JSONStore
import JSONStoreEtcd

/// `jsonstore check`: every invalid file, with its line, column and reason.
struct CheckCommand: Command {
    static let configuration = CommandConfiguration(
        name: "check", abstract: "validate every file, list conflicts; exit 1 if any",
        discussion: """
            Validates every file of the store and lists the problems on stdout \
            (file:line:column: reason; an item that breaks the store's schema, a line for \
            each way it does: file:line:column: /path: message), then the schema itself \
            if it is broken, then every conflict (ID: conflict: the version from \
            WHERE, kept in FILE, then which version resolve --keep mine and --keep theirs \
            keep: mine is this machine's edit, theirs the other's), a mirror's conflict that could \
            not be kept (ID: conflict: could not be kept…), then a private folder \
            (DIR/.jsonstore, or a folder in it) that is a symbolic link, never followed, \
            then each damaged place of the history's journal (FILE: at byte N: reason), \
            then a count on stderr (of files; on etcd, of keys, \
            then the server and the limits it puts on items and batches). Exit status 1 if \
            there are any.
            """)

    init(_ arguments: Arguments) throws(UsageError) {
        try arguments.expectNoPositionals()
    }

    func run(_ context: Context) throws {
        let store = try context.open()
        let contents = try store.load()
        let conflicts = try store.conflicts()
        // The store's own folder as a link is never followed, and is said.
        let folder = store._privateFolder?.problems() ?? []
        // A mirror's conflicts it could not keep: the item does not converge.
        let unkept =
            folder.isEmpty
            ? (store._privateFolder.flatMap { try? MirrorState(reading: $0) }?.unkeptLines ?? [])
            : []
        // The journal's damage: history is kept around it, but it is lost there.
        let history = store._historySummary()?.damage.map(Display.escaped) ?? []
        // The schema: broken (the last valid one in force, here none), or only warning.
        let schema = store.schemaState().problem.map { [$0.description] } ?? []
        let breaking = store._schemaWarnings(contents.items)
        let warnings = breaking.flatMap(SchemaWords.lines)
        Output.lines(
            contents.invalid.flatMap { SchemaWords.lines(of: $0.error) } + schema + warnings
                + conflicts.map { conflict in
                    ConflictWords.line(
                        conflict, among: conflicts.filter { UTF8Key.equal($0.id, conflict.id) })
                } + unkept + folder.map(\.description) + history)
        let files = contents.items.count + contents.invalid.count
        // On etcd an item is a key, not a file.
        let unit = (store._isRemote ? "key" : "file") + (files == 1 ? "" : "s")
        let conflicted =
            conflicts.isEmpty
            ? "" : ", \(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s")"
        let warned = breaking.isEmpty ? "" : ", \(breaking.count) breaking the schema"
        Output.error("\(files) \(unit), \(contents.invalid.count) invalid\(warned)\(conflicted)")
        if let server = store._serverSummary() { Output.error(server) }
        if !contents.invalid.isEmpty || !conflicts.isEmpty || !folder.isEmpty || !unkept.isEmpty
            || !history.isEmpty || !schema.isEmpty || !warnings.isEmpty
        {
            throw ExitCode.failure
        }
    }
}
