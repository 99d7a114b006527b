import Dispatch
import Glibc
import JSONStore

/// `jsonstore demo [--interval SECONDS] [--count N]`: the seed's Realm demo, on files.
///
/// Every interval, one batch deletes the demo items and adds `count` new ones with random
/// ids, so a list view in another terminal shows deletions and insertions live. Only items
/// marked `"demo": true` are deleted: the demo never destroys anyone's data. SIGINT,
/// SIGTERM and SIGHUP end it with status 0 between rounds, never halfway through a batch.
struct DemoCommand: Command {
    static let configuration = CommandConfiguration(
        name: "demo", abstract: "every interval, replace the demo items with N new ones",
        discussion: """
            Every interval, deletes the demo items and adds N new ones with random ids, for \
            watching a list view change live. Only items marked "demo": true are deleted; \
            other items are left alone. Ctrl-C or SIGTERM stops it between rounds.
            """,
        options: [
            .option("--interval", value: "SECONDS", help: "the time between rounds (default 2)"),
            .option("--count", value: "N", help: "the demo items per round, 1 to 10000 (default 10)"),
        ])

    var interval = 2.0
    var count = 10

    init(_ arguments: Arguments) throws(UsageError) {
        try arguments.expectNoPositionals()
        if let interval = try arguments.seconds("--interval") { self.interval = interval }
        if let count = try arguments.integer("--count", in: 1...10_000) { self.count = count }
    }

    func run(_ context: Context) throws {
        let store = try context.open()
        let stop = DispatchSemaphore(value: 0)
        Signals.handle([SIGINT, SIGTERM, SIGHUP], on: .global()) { _ in stop.signal() }
        var round = 0
        while true {
            round += 1
            try Self.replace(in: store, count: count)
            Output.line("round \(round): \(count) demo items")
            if stop.wait(timeout: .now() + interval) == .success { return }
        }
    }

    static func replace(in store: JSONStore, count: Int) throws {
        let existing = try store.load().items.filter { $0["demo"] == .bool(true) }.map(\.id)
        let numbers = (0..<count).map { _ in Int.random(in: 0..<1000) }
        try store.write { tx in
            for id in existing { try tx.delete(id) }
            for n in Set(numbers) {
                try tx.put("demo-\(n)", ["name": .string("item\(n)"), "demo": true])
            }
        }
    }
}
