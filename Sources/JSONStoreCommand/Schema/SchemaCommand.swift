import JSONStore

/// `jsonstore schema validate|set|show|remove|infer`: the store's JSON Schema, and a
/// validator for any document.
struct SchemaCommand: Command {
    static let configuration = CommandConfiguration(
        name: "schema", abstract: "the store's JSON Schema: set, show, remove, infer; validate",
        arguments: "validate SCHEMA [FILE|-]... | set FILE|- | show | remove | infer",
        discussion: """
            The store's schema (JSON Schema 2020-12) is DIR/.jsonstore/schema.json (on etcd \
            the key PREFIX/.jsonstore/schema.json), versioned with the data. It checks each \
            item's file as written, less its "id" (the file's name). Under a strict schema \
            an item that breaks it is invalid, as a file that is not JSON is (observers keep \
            its last valid value; check lists it), and a write through jsonstore that would \
            break it is refused; under --mode warn both are only reported. \
            set FILE|- checks the schema first (JSON, the 2020-12 meta-schema, every $ref \
            and pattern) and refuses a bad one with its line, column and keyword, leaving \
            the one in force; it says how many items break the new one. show prints it; \
            remove removes it; infer prints a schema every current item satisfies, with no \
            member the items do not have (--write sets it). validate SCHEMA [FILE|-]... checks any JSON documents against a \
            schema: each error as FILE:LINE:COLUMN: /path: message (keyword at /location); \
            exit 0 when all are valid, 1 when one is not, 64 for a bad schema.
            """,
        options: [
            .option(
                "--mode", value: "MODE",
                help: "set: strict (refuse, the default) or warn (only report)",
                choices: ["strict", "warn"]),
            .flag("--write", help: "infer: set the schema inferred"),
            .option(
                "--output", "-o", value: "FORMAT",
                help: "validate: text (the default) or json (one line per document)",
                choices: ["text", "json"]),
            .flag("--assert-format", help: "validate: check format (an annotation by default)"),
        ],
        positionals: .words(["validate", "set", "show", "remove", "infer"]))

    enum Verb: String, CaseIterable {
        case validate, set, show, remove, infer
    }

    var verb: Verb
    var files: [String]
    var mode: String?
    var write: Bool
    var json: Bool
    var assertingFormat: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard let word = arguments.positionals.first else {
            throw UsageError("schema needs validate, set, show, remove or infer", command: "schema")
        }
        guard let verb = Verb(rawValue: word) else {
            throw UsageError(
                "unknown schema command '\(Display.escaped(word))' (validate, set, show, remove, infer)",
                command: "schema")
        }
        self.verb = verb
        files = Array(arguments.positionals.dropFirst())
        mode = try arguments.choice("--mode")
        write = arguments.has("--write")
        json = try arguments.choice("--output") == "json"
        assertingFormat = arguments.has("--assert-format")
        let takes: ClosedRange<Int>
        switch verb {
        case .validate: takes = 1...Int.max
        case .set: takes = 1...1
        case .show, .remove, .infer: takes = 0...0
        }
        guard takes.contains(files.count) else {
            let what =
                verb == .validate
                ? "a SCHEMA, then the documents"
                : takes.upperBound == 1 ? "one FILE or -" : "nothing"
            throw UsageError("schema \(verb.rawValue) takes \(what)", command: "schema")
        }
        if mode != nil && verb != .set {
            throw UsageError("--mode is for schema set", command: "schema")
        }
        if write && verb != .infer {
            throw UsageError("--write is for schema infer", command: "schema")
        }
    }

    func run(_ context: Context) throws {
        switch verb {
        case .validate: try validate()
        case .set: try set(try context.open())
        case .show:
            let store = try context.open()
            guard let document = try store.schemaDocument() else {
                throw CommandFailure("\(Display.escaped(store.path)) has no schema")
            }
            Self.show(document)
        case .remove:
            let store = try context.open()
            guard try store.removeSchema() else {
                throw CommandFailure("\(Display.escaped(store.path)) has no schema")
            }
        case .infer:
            let store = try context.open()
            var inference = SchemaInference()
            for item in try store._loadIgnoringSchema().items {
                inference.add(StoreSchema.checked(item))
            }
            let bytes = JSONWriter.pretty(inference.schema)
            if write { try store.setSchema(bytes) }
            Output.out(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// `schema set FILE|-`: checked, written, and how many items break it said.
    private func set(_ store: JSONStore) throws {
        var document = try InputFile.read(files[0] == "-" ? nil : files[0], limit: 16 << 20)
        if let mode { document = try Self.document(document, mode: mode, file: files[0]) }
        // Checked first where the person wrote it, so its errors name their file.
        _ = try JSONSchema(json: document, file: files[0] == "-" ? "<stdin>" : files[0])
        try store.setSchema(document)
        let contents = try store._loadIgnoringSchema()
        guard let schema = store.schemaState().schema else { return }
        let breaking = contents.items.filter { !schema.violations(of: $0).isEmpty }.count
        if breaking > 0 {
            Output.error(
                "\(breaking) of \(contents.items.count) items break the schema (jsonstore check lists them)"
            )
        }
    }
}
