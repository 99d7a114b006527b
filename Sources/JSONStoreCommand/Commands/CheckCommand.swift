import JSONStore

/// `jsonstore check`: every invalid file, with its line, column and reason.
struct CheckCommand: Command {
    static let configuration = CommandConfiguration(
        name: "check", abstract: "validate every file; exit 1 if any is invalid",
        discussion: """
            Validates every file of the store and lists the problems on stdout \
            (file:line:column: reason), then a count on stderr (on etcd, then the server and \
            the limits it puts on items and batches). Exit status 1 if there are any.
            """)

    init(_ arguments: Arguments) throws(UsageError) {
        try arguments.expectNoPositionals()
    }

    func run(_ context: Context) throws {
        let store = try context.open()
        let contents = try store.load()
        Output.lines(contents.invalid.map(\.error.description))
        let files = contents.items.count + contents.invalid.count
        Output.error("\(files) files, \(contents.invalid.count) invalid")
        if let server = store._serverSummary() { Output.error(server) }
        if !contents.invalid.isEmpty { throw ExitCode.failure }
    }
}
