import Dispatch
import Foundation
import Glibc
import JSONStore

/// `jsonstore list [--follow] [--json] [--sort [-]FIELD] [--where FIELD=VALUE]...
/// [--columns F,G,...] [--poll SECONDS]`
enum ListCommand {
    struct Settings {
        var query = Query.all
        var columns: [String]?
        var follow = false
        var json = false
        var color: ColorChoice
    }

    static func run(_ arguments: [String], _ context: CommandLineTool.Context) throws -> Int32 {
        let args = try Arguments(
            arguments, command: "list", flags: ["--follow", "--json"],
            options: ["--sort", "--where", "--columns", "--poll", "--color"])
        guard args.positionals.isEmpty else {
            throw UsageError("list takes no arguments, not '\(Display.escaped(args.positionals[0]))'", command: "list")
        }
        var settings = Settings(follow: args.has("--follow"), json: args.has("--json"), color: context.color)
        if let color = args.value("--color") { settings.color = try CommandLineTool.colorChoice(color, command: "list") }
        for condition in args.all("--where") {
            guard let equals = condition.firstIndex(of: "="), equals != condition.startIndex else {
                throw UsageError("--where takes FIELD=VALUE, not '\(Display.escaped(condition))'", command: "list")
            }
            let field = String(condition[..<equals])
            let value = String(condition[condition.index(after: equals)...])
            settings.query = settings.query.filter(field: field, equals: .string(value))
        }
        if var field = args.value("--sort") {
            let descending = field.hasPrefix("-")
            if descending { field.removeFirst() }
            guard !field.isEmpty else { throw UsageError("--sort takes [-]FIELD", command: "list") }
            settings.query = field == "id" && !descending ? settings.query.sortedByID() : settings.query.sorted(by: field, descending: descending)
        }
        if let columns = args.value("--columns") {
            let names = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !names.isEmpty else { throw UsageError("--columns takes F,G,...", command: "list") }
            settings.columns = names
        }
        var options = JSONStore.Options()
        if let interval = try args.seconds("--poll", command: "list") { options.watchMode = .polling(interval: interval) }
        let store = try JSONStore(directory: context.directory, options: options)

        guard settings.follow else { return try printOnce(store, settings, width: tableWidth(context)) }
        let terminal = Output.isTerminal(STDOUT_FILENO) && Output.isTerminal(STDIN_FILENO)
            && (context.environment["TERM"] ?? "") != "dumb"
        let color = settings.color.enabled(environment: context.environment, terminal: true)
        let width = tableWidth(context)
        // The command runs on the main thread, which `dispatchMain()` then gives to the
        // main queue: the followers live on the main actor.
        MainActor.assumeIsolated {
            if settings.json {
                FollowJSON.start(store, settings.query)
            } else if terminal {
                ListViewApp.start(store, settings, color: color)
            } else {
                FollowLines.start(store, settings, width: width)
            }
        }
        dispatchMain()
    }

    /// The width of a printed table: the terminal's, else $COLUMNS, else 80.
    static func tableWidth(_ context: CommandLineTool.Context) -> Int {
        if Output.isTerminal(STDOUT_FILENO) { return TerminalSession.size().width }
        return context.environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 80
    }

    static func printOnce(_ store: JSONStore, _ settings: Settings, width: Int) throws -> Int32 {
        let contents = try store.load()
        let items = settings.query.apply(to: contents.items)
        if settings.json {
            Output.out(Output.prettyJSON(NDJSON.items(items)))
        } else {
            let table = Table(columns: Table.columns(for: items, requested: settings.columns))
            Output.lines(table.lines(for: items, width: width))
        }
        for invalid in contents.invalid { Output.error(invalid.error.description) }
        return ExitStatus.success
    }
}

/// `list --follow --json`: the NDJSON stream.
@MainActor
enum FollowJSON {
    static var tokens: [ObservationToken] = []
    /// The state last reported, `nil` before the initial event.
    static var lastState: String?

    static func start(_ store: JSONStore, _ query: Query) {
        Signals.exitOnInterrupt()
        tokens.append(store.observe(query) { change in
            if case .initial(let results) = change {
                lastState = "live"
                NDJSON.writeInitial(results) { var bytes = $0; Output.writeAll(fd: STDOUT_FILENO, &bytes) }
            } else {
                Output.out(NDJSON.event(change))
            }
        })
        tokens.append(store.observeState { state in
            // Loading is the initial event's business; after it, every change of state.
            guard let previous = lastState, previous != state.name else { return }
            lastState = state.name
            Output.out(NDJSON.status(state))
        })
    }
}

/// `list --follow` to a pipe or a dumb terminal: the table, then one line per change.
@MainActor
enum FollowLines {
    static var token: ObservationToken?

    static func start(_ store: JSONStore, _ settings: ListCommand.Settings, width: Int) {
        Signals.exitOnInterrupt()
        token = store.observe(settings.query) { change in
            switch change {
            case .initial(let results):
                let table = Table(columns: Table.columns(for: results, requested: settings.columns))
                Output.lines(table.lines(for: results, width: width) + results.invalid.map(ChangeLines.invalid))
            case .update(_, let changes):
                Output.lines(ChangeLines.lines(changes))
            case .error(let error):
                Output.error(error.description)
            }
        }
    }
}

