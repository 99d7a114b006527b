import Dispatch
import JSONStore

/// `list --follow --json`: the NDJSON stream.
///
/// Every event carries `"revision"`, a token to resume from (`--since`); while nothing
/// changes, a bookmark every `--bookmarks` seconds gives a fresh one.
@MainActor
enum FollowJSON {
    static var tokens: [ObservationToken] = []
    /// The state last reported, `nil` before the initial event.
    static var lastState: String?
    /// The revision and version of the last results written.
    static var lastRevision: StoreRevision?
    static var lastVersion = 0
    /// When the last event was written (the monotonic clock, in seconds).
    static var lastWritten = 0.0
    static var bookmarkTimer: (any DispatchSourceTimer)?
    /// The counts last written, with `--count-by`.
    static var lastCounts: [CountBy.Count]?

    static func start(_ store: JSONStore, _ list: ListCommand) {
        Signals.exitOnInterrupt()
        if let countBy = list.countBy { return startCounts(store, list, countBy) }
        tokens.append(
            store.observe(
                list.query, since: list.since ?? .now, policy: list.policy,
                members: list.members
            ) { change in
                write(change, store: store, list: list)
            })
        tokens.append(
            store.observeState { state in
                // Loading is the initial event's business; after it, every change of state.
                guard let previous = lastState, previous != state.name else { return }
                lastState = state.name
                emit(NDJSON.status(state, revision: lastRevision))
            })
        if list.bookmarks > 0 { startBookmarks(every: list.bookmarks, store: store) }
    }

    private static func write(_ change: StoreChange<Item>, store: JSONStore, list: ListCommand) {
        switch change {
        case .initial(let results):
            if case .reset(let reason)? = results.resumption {
                emit(NDJSON.reset(reason, revision: results.revision))
            }
            list.warnAboutUnknownFields(results, in: store)
            lastState = "live"
            var out = OutputBuffer.standardOutput()
            NDJSON.writeInitial(results, naming: store._entryName, to: &out)
            out.flush()
            lastWritten = now()
        case .update(let results, let changes):
            if case .resumed(let revision)? = results.resumption {
                list.warnAboutUnknownFields(results, in: store)
                lastState = "live"
                emit(NDJSON.resumed(revision))
            }
            if !changes.isEmpty { emit(NDJSON.event(change, naming: store._entryName)) }
        case .error:
            emit(NDJSON.event(change, revision: lastRevision))
        }
        switch change {
        case .initial(let results), .update(let results, _):
            (lastRevision, lastVersion) = (results.revision, results.version)
        case .error: break
        }
    }

    /// `--count-by`: a `counts` event first, then whenever a count changes (a value came
    /// or went, or its count moved), and nothing else but an error.
    private static func startCounts(_ store: JSONStore, _ list: ListCommand, _ countBy: CountBy) {
        let query = countBy.grouped(list.query)
        tokens.append(
            store.observe(query, since: .now, policy: list.policy) { change in
                switch change {
                case .initial(let results):
                    list.warnAboutUnknownFields(results, in: store)
                    lastCounts = countBy.counts(results)
                    emit(CountsWriter.event(lastCounts!, revision: results.revision))
                case .update(let results, let changes):
                    guard changes.sections.changesFigures else { break }
                    // Sections are whole values: an array's elements may count the same.
                    let counts = countBy.counts(results)
                    guard counts != lastCounts else { break }
                    lastCounts = counts
                    emit(CountsWriter.event(counts, revision: results.revision))
                case .error:
                    emit(NDJSON.event(change, revision: lastRevision))
                }
                lastRevision = change.revision ?? lastRevision
            })
    }

    private static func emit(_ line: String) {
        Output.out(line)
        lastWritten = now()
    }

    /// A bookmark whenever nothing was written for `seconds`: the revision of the last
    /// results, or a fresher one at which the store is known to be the same.
    private static func startBookmarks(every seconds: Double, store: JSONStore) {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let tick = min(seconds / 4, 1)
        timer.schedule(deadline: .now() + tick, repeating: tick)
        timer.setEventHandler {
            MainActor.assumeIsolated {
                guard let last = lastRevision, now() - lastWritten >= seconds else { return }
                emit(NDJSON.bookmark(store._quietRevision(atVersion: lastVersion) ?? last))
            }
        }
        timer.resume()
        bookmarkTimer = timer
    }

    private static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
