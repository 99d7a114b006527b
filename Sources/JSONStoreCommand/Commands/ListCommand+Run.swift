import Dispatch
import Glibc
import JSONStore

extension ListCommand {
    func run(_ context: Context) throws {
        var options = JSONStore.Options()
        if let poll { options.watchMode = .polling(interval: poll) }
        let store = try context.open(options: options)
        let width = Self.tableWidth(context)
        let format = self.format ?? .automatic(terminal: Output.isTerminal(STDOUT_FILENO))
        guard follow else { return try printOnce(store, format: format, width: width) }
        let terminal =
            Output.isTerminal(STDOUT_FILENO) && Output.isTerminal(STDIN_FILENO)
            && (context.environment["TERM"] ?? "") != "dumb"
        let color = context.color.enabled(environment: context.environment, terminal: terminal)
        // The command runs on the main thread, which `dispatchMain()` then gives to the
        // main queue: the followers live on the main actor.
        if countBy != nil && !format.streams && !(terminal && format == .table) {
            throw Self.countsFollowedOffTerminal
        }
        MainActor.assumeIsolated {
            if format.streams {
                FollowJSON.start(store, self)
            } else if terminal && format == .table {
                ListViewApp.start(store, self, color: color, environment: context.environment)
            } else {
                FollowLines.start(store, self, format: format, width: width)
            }
        }
        dispatchMain()
    }

    /// The width of a printed table: the terminal's, else $COLUMNS, else 80.
    static func tableWidth(_ context: Context) -> Int {
        if Output.isTerminal(STDOUT_FILENO) { return TerminalSession.size().width }
        return context.environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 80
    }

    func printOnce(_ store: JSONStore, format: ListFormat, width: Int) throws {
        if let countBy { return try printCounts(store, countBy, format: format, width: width) }
        if sort.isEmpty && format.writesAsRead(columnsGiven: columns != nil) {
            return try streamOnce(store, format: format)
        }
        let contents = try store.load()
        let items = query.apply(to: contents.items)
        let unknown = FieldPath.unknown(namedFields, in: contents.items)
        for warning in operatorWarnings + unknown { Output.error(warning) }
        let columns = format.hasColumns ? Table.columns(for: items, requested: columns) : ["id"]
        var out = OutputBuffer.standardOutput()
        format.write(items, columns: columns, headers: headers, width: width, to: &out)
        out.flush()
        for invalid in contents.invalid { Output.error(invalid.error.description) }
        // The process exits next, which frees everything at once: releasing a large store's
        // items one by one first would only delay the exit.
        keptUntilExit = (contents, items)
    }

    /// `--count-by`: each value with its count, then the warnings.
    private func printCounts(_ store: JSONStore, _ countBy: CountBy, format: ListFormat, width: Int)
        throws
    {
        let contents = try store.load()
        let counts = countBy.counts(contents.items, query: query)
        var out = OutputBuffer.standardOutput()
        CountsWriter.write(
            counts, field: countBy.field.text, format: format, headers: headers, width: width,
            to: &out)
        out.flush()
        let unknown = FieldPath.unknown(namedFields, in: contents.items)
        for warning in operatorWarnings + unknown { Output.error(warning) }
        for invalid in contents.invalid { Output.error(invalid.error.description) }
    }

    /// A listing in id order, written as the files are read, a chunk at a time: its
    /// memory stays flat however large the store. The warnings come after the listing.
    private func streamOnce(_ store: JSONStore, format: ListFormat) throws {
        var unseen = namedFields  // the named fields no item has had yet
        var tally = FieldTally()
        var writer = ListingWriter(
            format: format, columns: ["id"] + (columns ?? []).filter { $0 != "id" },
            headers: headers)
        var out = OutputBuffer.standardOutput()
        let query = self.query
        let invalid = try store.forEachChunk { items in
            if !unseen.isEmpty {
                tally.add(items)
                unseen = FieldPath.missing(unseen, in: items)
            }
            writer.write(query.apply(to: items), to: &out)
        }
        writer.finish(to: &out)
        out.flush()
        let unknown = FieldPath.warnings(unseen, fields: tally.ranked())
        for warning in operatorWarnings + unknown { Output.error(warning) }
        for file in invalid { Output.error(file.error.description) }
    }

    /// Warns about the fields the options name that no item has, once the store's
    /// initial results are in: on stderr, or to `deliver` (the list view's footer). The
    /// results are filtered: when none is left, the fields are looked for in the whole
    /// store, read again off the main queue.
    @MainActor
    func warnAboutUnknownFields(
        _ results: Results<Item>, in store: JSONStore,
        deliver: @escaping @MainActor ([String]) -> Void = {
            for warning in $0 { Output.error(warning) }
        }
    ) {
        let fields = namedFields
        let operators = operatorWarnings
        guard !fields.isEmpty else { return }
        guard results.isEmpty, !conditions.isEmpty else {
            let warnings = operators + FieldPath.unknown(fields, in: results)
            if !warnings.isEmpty { deliver(warnings) }
            return
        }
        let deliverOnMain = { @Sendable (warnings: [String]) in
            DispatchQueue.main.async { MainActor.assumeIsolated { deliver(warnings) } }
        }
        DispatchQueue.global(qos: .utility).async {
            let unknown = (try? store.load().items).map { FieldPath.unknown(fields, in: $0) }
            let warnings = operators + (unknown ?? [])
            if !warnings.isEmpty { deliverOnMain(warnings) }
        }
    }
}

/// What a one-shot listing loaded, left for the process's exit to free (still reachable, so
/// a leak checker sees no leak).
nonisolated(unsafe) private var keptUntilExit: Any?
