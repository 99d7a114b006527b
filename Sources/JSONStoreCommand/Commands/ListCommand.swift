import Foundation
import JSONStore

/// `jsonstore list`: the items as a table, JSON, or live.
struct ListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list", abstract: "print the items; --follow keeps the list live",
        discussion: """
            Prints the items as a table fitted to the terminal (80 columns, or $COLUMNS, when \
            not a terminal): the id and the items' most common fields, or --columns.

            Keys in the list view: q or Ctrl-C quit, ↑ ↓ j k move, PgUp PgDn, g G top and \
            bottom, Enter shows the item (Esc or q back), / filters the rows (Esc clears).
            """,
        options: [
            .flag("--follow", help: "keep following: on a terminal, a live list view (q quits); piped, one line per change (ADDED, MODIFIED, DELETED, INVALID); with --json, one JSON object per change (NDJSON)"),
            .flag("--json", help: "a JSON array of the items, each with \"id\""),
            .option("--sort", value: "[-]FIELD", help: "sort by FIELD (descending with -), ties by id; default: id"),
            .option("--where", value: "FIELD=VALUE", help: "only items whose FIELD equals VALUE (repeat to narrow)", repeats: true),
            .option("--columns", value: "F,G,...", help: "the columns after the id (default: the most common fields)"),
            .option("--poll", value: "SECONDS", help: "watch by polling every SECONDS (network file systems)"),
        ])

    var follow: Bool
    var json: Bool
    var query = Query.all
    /// The columns asked for, `nil` for the most common fields.
    var columns: [String]?
    /// The polling interval, `nil` to watch with inotify.
    var poll: Double?

    init(_ arguments: Arguments) throws(UsageError) {
        try arguments.expectNoPositionals()
        follow = arguments.has("--follow")
        json = arguments.has("--json")
        for condition in arguments.all("--where") {
            let (field, value) = Arguments.split(condition)
            guard let value, !field.isEmpty else {
                throw UsageError("--where takes FIELD=VALUE, not '\(Display.escaped(condition))'", command: "list")
            }
            query = query.filter(field: field, equals: .string(value))
        }
        if var field = arguments.value("--sort") {
            let descending = field.hasPrefix("-")
            if descending { field.removeFirst() }
            guard !field.isEmpty else { throw UsageError("--sort takes [-]FIELD", command: "list") }
            query = field == "id" && !descending ? query.sortedByID() : query.sorted(by: field, descending: descending)
        }
        if let text = arguments.value("--columns") {
            let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !names.isEmpty else { throw UsageError("--columns takes F,G,...", command: "list") }
            columns = names
        }
        poll = try arguments.seconds("--poll")
    }
}
