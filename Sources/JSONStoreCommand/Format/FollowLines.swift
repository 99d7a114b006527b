import JSONStore

/// `list --follow` to a pipe or a dumb terminal: the listing (TSV, a table or ids), then
/// one line per change.
@MainActor
enum FollowLines {
    static var token: ObservationToken?

    static func start(_ store: JSONStore, _ list: ListCommand, format: ListFormat, width: Int) {
        Signals.exitOnInterrupt()
        token = store.observe(list.query, policy: list.policy, members: list.members) { change in
            switch change {
            case .initial(let results):
                list.warnAboutUnknownFields(results, in: store)
                let columns =
                    format.hasColumns
                    ? Table.columns(for: results, requested: list.columns) : ["id"]
                var out = OutputBuffer.standardOutput()
                format.write(
                    results, columns: columns, headers: list.headers, width: width, to: &out)
                for invalid in results.invalid { out.line(ChangeLines.invalid(invalid)) }
                out.flush()
            case .update(_, let changes):
                Output.lines(ChangeLines.lines(changes))
            case .error(let error):
                Output.error(error.description)
            }
        }
    }
}
