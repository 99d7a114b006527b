import Foundation
import JSONStore

/// `jsonstore list`: the items as a table, JSON, or live.
struct ListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list", abstract: "print the items; --follow keeps the list live",
        discussion: """
            Prints the items: on a terminal as a table fitted to its width (long values cut \
            with …), the id and the items' most common fields, or --columns; to a pipe or a \
            file as tab-separated values, whole, with a header line (-o picks the format).

            Keys in the list view: q or Ctrl-C quit, ↑ ↓ j k move, PgUp PgDn, g G top and \
            bottom, Enter shows the item (Esc or q back), / filters the rows (Esc clears).
            """,
        options: [
            .flag("--follow", help: "keep following: on a terminal, a live list view (q quits); piped, the listing then one line per change (ADDED, MODIFIED, DELETED, INVALID); with -o json or ndjson, one JSON object per change (NDJSON)"),
            .option(
                "--output", "-o", value: "FORMAT",
                help: "table (the default on a terminal), tsv (elsewhere: whole values, tab-separated), json (an array of the items, each with \"id\"), ndjson (one item per line) or ids (one id per line, for xargs)",
                choices: ListFormat.allCases.map(\.rawValue)),
            .flag("--json", help: "the same as -o json"),
            .flag("--no-headers", help: "no line of column names (table and tsv)"),
            .option("--sort", value: "[-]FIELD", help: "sort by FIELD (descending with -), ties by id; default: id"),
            .option("--where", value: "FIELD=VALUE", help: "only items whose FIELD equals VALUE (repeat to narrow)", repeats: true),
            .option("--columns", value: "F,G,...", help: "the columns after the id (default: the most common fields)"),
            .option("--poll", value: "SECONDS", help: "watch by polling every SECONDS (network file systems)"),
        ])

    var follow: Bool
    /// The output format, `nil` for a table on a terminal and TSV elsewhere.
    var format: ListFormat?
    var headers: Bool
    var query = Query.all
    /// The columns asked for, `nil` for the most common fields.
    var columns: [String]?
    /// The polling interval, `nil` to watch with inotify.
    var poll: Double?

    init(_ arguments: Arguments) throws(UsageError) {
        try arguments.expectNoPositionals()
        follow = arguments.has("--follow")
        headers = !arguments.has("--no-headers")
        format = try arguments.choice("--output").flatMap(ListFormat.init(rawValue:))
        if arguments.has("--json") {
            guard format == nil || format == .json else {
                throw UsageError("--json is -o json; it cannot go with -o \(format!.rawValue)", command: "list")
            }
            format = .json
        }
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
