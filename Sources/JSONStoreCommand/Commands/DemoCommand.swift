import Dispatch
import FoundationEssentials
import Glibc
import JSONStore

/// `jsonstore demo [--interval SECONDS] [--count N]`: the seed's Realm demo, on files.
///
/// Every interval, one batch deletes the demo items and adds `count` new ones with random
/// ids and the sample store's fields, so a list view in another terminal shows deletions
/// and insertions live. Only items marked `"demo": true` are deleted, and no id of another
/// item is used: the demo never destroys anyone's data. SIGINT, SIGTERM and SIGHUP end it
/// with status 0 between rounds, never halfway through a batch, and it removes its items
/// then unless `--keep`.
struct DemoCommand: Command {
    static let configuration = CommandConfiguration(
        name: "demo", abstract: "every interval, replace the demo items with N new ones",
        discussion: """
            Every interval, deletes the demo items and adds N new ones with random ids and \
            the fields of the sample store (title, status, priority, tags, updated), for \
            watching a list view change live. Only items marked "demo": true are deleted; \
            other items are left alone. Ctrl-C or SIGTERM stops it between rounds, and its \
            items are removed then, unless --keep.
            """,
        options: [
            .option("--interval", value: "SECONDS", help: "the time between rounds (default 2)"),
            .option(
                "--count", value: "N", help: "the demo items per round, 1 to 10000 (default 10)"),
            .flag("--keep", help: "leave the last round's items in the store when stopped"),
        ])

    var interval = 2.0
    var count = 10
    var keep = false

    init(_ arguments: Arguments) throws(UsageError) {
        try arguments.expectNoPositionals()
        if let interval = try arguments.seconds("--interval") { self.interval = interval }
        if let count = try arguments.integer("--count", in: 1...10_000) { self.count = count }
        keep = arguments.has("--keep")
    }

    func run(_ context: Context) throws {
        let store = try context.open()
        let stop = DispatchSemaphore(value: 0)
        Signals.handle([SIGINT, SIGTERM, SIGHUP], on: .global()) { _ in stop.signal() }
        var round = 0
        while true {
            round += 1
            let made = try Self.replace(in: store, count: count)
            Output.line("round \(round): \(made) demo items")
            if stop.wait(timeout: .now() + interval) == .success { break }
        }
        guard !keep else { return }
        let removed = try Self.replace(in: store, count: 0)
        Output.line("stopped: \(removed) demo items removed")
    }

    static let statuses: [JSONValue] = ["todo", "doing", "done"]

    /// Replaces the demo items with `count` new ones in one batch; returns how many it
    /// removed (with `count` 0) or made.
    static func replace(in store: JSONStore, count: Int) throws -> Int {
        let items = try store.load().items
        let existing = items.filter { $0["demo"] == .bool(true) }.map(\.id)
        let others = Set(items.filter { $0["demo"] != .bool(true) }.map { UTF8Key($0.id) })
        var ids: Set<String> = []
        let range = 0..<max(1_000, count * 4)
        for _ in 0..<(count * 20) where ids.count < count {
            let id = "demo-\(Int.random(in: range))"
            if !others.contains(UTF8Key(id)) { ids.insert(id) }
        }
        let updated = JSONValue.string(Date().formatted(Date.ISO8601FormatStyle()))
        try store.write { tx in
            for id in existing { try tx.delete(id) }
            for id in ids {
                try tx.put(
                    id,
                    [
                        "title": .string("Demo task \(id.dropFirst(5))"),
                        "status": statuses.randomElement()!,
                        "priority": .number(JSONNumber(Int.random(in: 1...4))), "tags": ["demo"],
                        "updated": updated,
                        "demo": true,
                    ])
            }
        }
        return count == 0 ? existing.count : ids.count
    }
}
