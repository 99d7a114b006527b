import JSONStore

/// `list --follow --json`: the NDJSON stream.
@MainActor
enum FollowJSON {
    static var tokens: [ObservationToken] = []
    /// The state last reported, `nil` before the initial event.
    static var lastState: String?

    static func start(_ store: JSONStore, _ list: ListCommand) {
        Signals.exitOnInterrupt()
        tokens.append(
            store.observe(list.query) { change in
                if case .initial(let results) = change {
                    list.warnAboutUnknownFields(results, in: store)
                    lastState = "live"
                    var out = OutputBuffer.standardOutput()
                    NDJSON.writeInitial(results, to: &out)
                    out.flush()
                } else {
                    Output.out(NDJSON.event(change))
                }
            })
        tokens.append(
            store.observeState { state in
                // Loading is the initial event's business; after it, every change of state.
                guard let previous = lastState, previous != state.name else { return }
                lastState = state.name
                Output.out(NDJSON.status(state))
            })
    }
}
