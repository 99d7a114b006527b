import FoundationEssentials
import JSONStore

/// What `--since` names: a revision, or a time (a date, a date and time, or an age).
struct HistorySince: Equatable {
    var revision: Int?
    var time: Date?

    /// `text` read as a revision (`41`), an age (`90m`, `6h`, `2d`, `1w` ago from `now`), a
    /// date (`2026-12-01`, local midnight) or an ISO 8601 date and time
    /// (`2026-12-01T09:30:00Z`); `nil` when it is none of them.
    init?(_ text: String, now: Date) {
        if let revision = Int(text), revision >= 0 {
            self.revision = revision
            return
        }
        if let unit = text.last, let count = Double(text.dropLast()), count >= 0,
            let seconds = ["s": 1.0, "m": 60, "h": 3600, "d": 86400, "w": 604800][unit]
        {
            time = now.addingTimeInterval(-count * seconds)
            return
        }
        if let date = try? Date(text, strategy: .iso8601) {
            time = date
            return
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            let midnight = ViewClock.localMidnight(year: year, month: month, day: day)
        else { return nil }
        time = Date(timeIntervalSince1970: midnight)
    }

    /// The revision of `id`'s newest change at or before `time`.
    static func revision(of id: String, at time: Date, in store: JSONStore) throws -> Int {
        let entries = try timed(store.history(of: id))
        guard let entry = entries.first(where: { $0.time! <= time }) else {
            throw CommandFailure("no history of \(Display.escaped(id)) at that time")
        }
        return entry.revision
    }

    /// Refuses a time where the store keeps none (etcd), before anything is read.
    static func requireTimes(_ context: Context, command: String) throws {
        guard !context.isEtcd else {
            throw CommandFailure(
                "\(command) TIME: etcd keeps no times of its changes: name a revision instead "
                    + "(jsonstore log lists them)")
        }
    }

    /// The entries at or after `time`.
    static func entries(_ entries: [HistoryEntry], since time: Date) throws -> [HistoryEntry] {
        try timed(entries).filter { $0.time! >= time }
    }

    /// `entries`, which must each have a time (etcd keeps none).
    private static func timed(_ entries: [HistoryEntry]) throws -> [HistoryEntry] {
        guard entries.allSatisfy({ $0.time != nil }) else {
            throw CommandFailure(
                "etcd keeps no times of its changes: name a revision instead (jsonstore log "
                    + "lists them)")
        }
        return entries
    }
}
