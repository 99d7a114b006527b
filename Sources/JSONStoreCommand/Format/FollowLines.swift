import JSONStore

/// `list --follow` to a pipe or a dumb terminal: the table, then one line per change.
@MainActor
enum FollowLines {
    static var token: ObservationToken?

    static func start(_ store: JSONStore, _ list: ListCommand, width: Int) {
        Signals.exitOnInterrupt()
        token = store.observe(list.query) { change in
            switch change {
            case .initial(let results):
                let table = Table(columns: Table.columns(for: results, requested: list.columns))
                Output.lines(table.lines(for: results, width: width) + results.invalid.map(ChangeLines.invalid))
            case .update(_, let changes):
                Output.lines(ChangeLines.lines(changes))
            case .error(let error):
                Output.error(error.description)
            }
        }
    }
}
