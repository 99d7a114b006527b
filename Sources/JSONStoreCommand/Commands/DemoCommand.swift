import Dispatch
import Glibc
import JSONStore

/// `jsonstore demo [--interval SECONDS] [--count N]`: the seed's Realm demo, on files.
///
/// Every interval, one batch deletes the demo items and adds `count` new ones with random
/// ids, so a list view in another terminal shows deletions and insertions live. Only items
/// marked `"demo": true` are deleted: the demo never destroys anyone's data. SIGINT,
/// SIGTERM and SIGHUP end it with status 0 between rounds, never halfway through a batch.
enum DemoCommand {
    static func run(_ arguments: [String], _ context: CommandLineTool.Context) throws -> Int32 {
        let args = try Arguments(arguments, command: "demo", flags: [], options: ["--interval", "--count"])
        guard args.positionals.isEmpty else { throw UsageError("demo takes no arguments", command: "demo") }
        let interval = try args.seconds("--interval", command: "demo") ?? 2
        var count = 10
        if let text = args.value("--count") {
            guard let n = Int(text), (1...10_000).contains(n) else {
                throw UsageError("--count takes a number from 1 to 10000", command: "demo")
            }
            count = n
        }
        let store = try context.open()
        let stop = DispatchSemaphore(value: 0)
        Signals.handle([SIGINT, SIGTERM, SIGHUP], on: .global()) { _ in stop.signal() }
        var round = 0
        while true {
            round += 1
            try replace(in: store, count: count)
            Output.line("round \(round): \(count) demo items")
            if stop.wait(timeout: .now() + interval) == .success { return ExitStatus.success }
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
