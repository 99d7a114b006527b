import FoundationEssentials
import JSONStore

/// `jsonstore log [ID] [-n N] [--since REV|TIME] [--ops] [-o table|json|ndjson]`: the
/// store's history, newest first.
struct LogCommand: Command {
    static let configuration = CommandConfiguration(
        name: "log", abstract: "show the history of the store or of one item", arguments: "[ID]",
        discussion: """
            Lists the changes the store's journal recorded, newest first: of every item, or \
            of ID. Each line has the revision, the time, the id, what happened, who did it \
            (a jsonstore command, another program, git, the mirror) and the members it \
            changed. Changes made while nothing watched the store are found now and \
            recorded as seen late, one for each item. --ops lists operations instead: one \
            line per command, with how many items it changed.
            """,
        options: [
            .option("--max-count", "-n", value: "N", help: "show the newest N entries"),
            .option(
                "--since", value: "REV|TIME",
                help: "only changes after revision REV, or since TIME (2026-12-01, "
                    + "2026-12-01T09:30:00Z, or 90m, 6h, 2d ago)"),
            .flag("--ops", help: "one line per operation, with how many items it changed"),
            .option(
                "--output", "-o", value: "FORMAT",
                help: "table (the default), json (an array of entries) or ndjson (one a line)",
                choices: ["table", "json", "ndjson"]),
        ],
        positionals: .ids)

    var id: String?
    var limit: Int?
    var since: HistorySince?
    var operations: Bool
    var format: String

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count <= 1 else {
            throw UsageError("log takes one ID at most", command: "log")
        }
        id = arguments.positionals.first
        limit = try arguments.integer("--max-count", in: 1...Int.max)
        since = try arguments.value("--since").map { (text) throws(UsageError) in
            guard let since = HistorySince(text, now: Date()) else {
                throw UsageError(
                    "--since takes a revision, a date or time (2026-12-01, "
                        + "2026-12-01T09:30:00Z) or an age (90m, 6h, 2d), not "
                        + "'\(Display.escaped(text))'", command: "log")
            }
            return since
        }
        operations = arguments.has("--ops")
        format = try arguments.choice("--output") ?? "table"
    }

    func run(_ context: Context) throws {
        if let id { try ItemID.validate(id) }
        if since?.time != nil { try HistorySince.requireTimes(context, command: "log --since") }
        let store = try context.open()
        // The newest entries only, and one more to tell whether the list is cut: unless
        // operations are grouped or a time filters them, which the whole list is read for.
        let fetched = operations || since?.time != nil ? nil : limit.map { $0 < .max ? $0 + 1 : $0 }
        var entries = try store.history(of: id, after: since?.revision ?? 0, limit: fetched)
        if let time = since?.time { entries = try HistorySince.entries(entries, since: time) }
        let words = HistoryWords()
        if operations {
            var groups = HistoryOperation.group(entries)
            let cut = limit.map { groups.count > $0 } ?? false
            if let limit, cut { groups.removeLast(groups.count - limit) }
            switch format {
            case "table": Output.lines(words.table(groups, width: ListCommand.tableWidth(context)))
            case "json": Output.out(Output.prettyJSON(.array(groups.map(words.json))))
            default: Output.lines(groups.map { words.compact(words.json($0)) })
            }
            if !cut { try sayWhereHistoryBegins(store, context) }
            return
        }
        let cut = limit.map { entries.count > $0 } ?? false
        if let limit, cut { entries.removeLast(entries.count - limit) }
        switch format {
        case "table": Output.lines(words.table(entries, width: ListCommand.tableWidth(context)))
        case "json": Output.out(Output.prettyJSON(.array(entries.map(words.json))))
        default: Output.lines(entries.map { words.compact(words.json($0)) })
        }
        if !cut { try sayWhereHistoryBegins(store, context) }
    }

    /// Where the history stops, when older changes are gone and the list reached back to
    /// them: after a table, or on standard error after JSON.
    private func sayWhereHistoryBegins(_ store: JSONStore, _ context: Context) throws {
        // A list cut by a time is not cut by what is gone.
        guard since?.time == nil else { return }
        let begins = try store.historyBegins()
        guard begins > 1, (since?.revision ?? 0) < begins - 1 else { return }
        let words =
            context.isEtcd
            ? "history stops here: etcd compacted at \(begins) and keeps no older changes"
            : "history stops here: the journal was pruned before revision \(begins) "
                + "(--history-max-age, --history-max-bytes)"
        if format == "table" { Output.line(words) } else { Output.error(words) }
    }
}
