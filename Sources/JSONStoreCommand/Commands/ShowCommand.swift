import FoundationEssentials
import JSONStore

/// `jsonstore show ID --at REV|TIME [--json]`: an item as it was then, from the history.
struct ShowCommand: Command {
    static let configuration = CommandConfiguration(
        name: "show", abstract: "show an item as it was at a revision or a time",
        arguments: "ID",
        discussion: """
            Prints the item ID as it was right after revision REV, or at TIME (a date, a \
            date and time, or an age: 2026-12-01, 2026-12-01T09:30:00Z, 2h), rebuilt from \
            the store's journal, as "field: value" lines or as JSON with --json. An item \
            that did not exist then is said so, exit 1.
            """,
        options: [
            .option("--at", value: "REV|TIME", help: "the revision or time to show"),
            .flag("--json", help: "print the item as JSON, with \"id\""),
        ],
        positionals: .ids)

    var id: String
    var at: HistorySince
    var json: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1, let id = arguments.positionals.first else {
            throw UsageError("show takes one ID", command: "show")
        }
        guard let text = arguments.value("--at") else {
            throw UsageError("show needs --at REV|TIME", command: "show")
        }
        guard let at = HistorySince(text, now: Date()) else {
            throw UsageError(
                "--at takes a revision, a date or time (2026-12-01, 2026-12-01T09:30:00Z) or "
                    + "an age (90m, 6h, 2d), not '\(Display.escaped(text))'", command: "show")
        }
        (self.id, self.at, json) = (id, at, arguments.has("--json"))
    }

    func run(_ context: Context) throws {
        try ItemID.validate(id)
        if at.time != nil { try HistorySince.requireTimes(context, command: "show --at") }
        let store = try context.open()
        let revision = try at.revision ?? HistorySince.revision(of: id, at: at.time!, in: store)
        guard let object = try store.item(id, at: revision) else {
            throw CommandFailure(
                "\(Display.escaped(id)) did not exist at revision \(revision)")
        }
        var shown = object
        shown.removeValue(forKey: "id")
        if json {
            var withID: JSONObject = ["id": .string(id)]
            for member in shown { withID[member.key] = member.value }
            Output.out(Output.prettyJSON(.object(withID)))
        } else {
            Output.lines(
                [("id", JSONValue.string(id))].map { "\($0.0): \(Table.cell($0.1))" }
                    + shown.map { "\(Display.escaped($0.key)): \(Table.cell($0.value))" })
        }
    }
}
