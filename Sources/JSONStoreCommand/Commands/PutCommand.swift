import JSONStore

/// `jsonstore put ID [FILE|-]`: replaces or creates an item with a JSON object.
struct PutCommand: Command {
    static let configuration = CommandConfiguration(
        name: "put", abstract: "replace an item with the JSON object in FILE or stdin",
        arguments: "ID [FILE|-]",
        discussion: """
            Replaces (or creates) the item ID with the JSON object in FILE, or on stdin when \
            FILE is - or missing. The object is validated first; the write is atomic. With \
            --if-match ETAG it is written only if the item's etag is still ETAG; with \
            --if-absent only if there is no such item (otherwise exit 1, nothing written).
            """,
        options: [.ifMatch, .flag("--if-absent", help: "create only: refuse if the item exists")],
        positionals: .idThenFile)

    var id: String
    /// The file to read, `nil` for stdin.
    var file: String?
    var expected: ItemExpectation?

    init(_ arguments: Arguments) throws(UsageError) {
        let positionals = arguments.positionals
        guard (1...2).contains(positionals.count) else {
            throw UsageError(
                positionals.isEmpty ? "put needs an ID" : "put takes an ID and one FILE",
                command: "put")
        }
        id = positionals[0]
        file = positionals.count == 2 && positionals[1] != "-" ? positionals[1] : nil
        expected = try arguments.expectation()
    }

    func run(_ context: Context) throws {
        try ItemID.validate(id)
        let object = try ItemDocument.read(file, limit: JSONReader().maxSize).object
        try context.open().put(id, object, expecting: expected)
    }
}
