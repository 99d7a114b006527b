import Dispatch
import Foundation
import JSONStore
import TestSupport
import Testing

/// Issue 10's acceptance example, with its spellings as written there (only the store's
/// path differs), run against a copy of the sample items.
@Suite("Typed live results: the acceptance example")
struct AcceptanceExampleTests {
    /// What the example prints, one line a call: its `print` calls come here.
    let printed = Locked<[String]>([])

    nonisolated func print(_ items: Any...) {
        let line = items.map { "\($0)" }.joined(separator: " ")
        printed.withLock { $0.append(line) }
    }

    @Test("it compiles and behaves as its comments say")
    @MainActor
    func acceptance() async throws {
        struct Task: Codable, Identifiable, Sendable, Equatable {
            var id: String
            var title: String
            var status: String
            var priority: Int
        }
        let temp = try TemporaryStore()
        try temp.writeFile(
            "water-plants.json",
            "{\"title\": \"Water the plants\", \"status\": \"todo\", \"priority\": 1}")
        try temp.writeFile(
            "tea.json", "{\"title\": \"Make tea\", \"status\": \"todo\", \"priority\": 2}")
        let printed = self.printed

        let store = try JSONStore(directory: temp.path)
        let queue = DispatchQueue(label: "observer")
        let token = store.observe(
            Task.self, Query.all.sorted(by: "priority", descending: true), on: queue
        ) {
            (change: StoreChange<Task>) in
            switch change {
            case .initial(let tasks):  // Results<Task>: a RandomAccessCollection of Task
                print(tasks.count, tasks.first?.title ?? "-")
            // ChangeSet<Task>: Realm's index spaces, as today
            case .update(let tasks, let changes):
                for task in changes.inserted { print("inserted", task.id, task.title) }  // [Task]
                for m in changes.modified {
                    print("modified", m.old.priority, "->", m.new.priority)
                }
                for task in changes.deleted { print("deleted", task.id) }  // last values
                for bad in changes.invalid { print("invalid", bad.error) }  // decode failures too
                _ = tasks.error(for: "water-plants")  // StoreError? while that file does not decode
            case .error(let error):
                print(error)
            }
        }
        for await change in store.changes(Task.self, Query.all) {
            _ = change
            break
        }  // AsyncSequence
        // @Observable, main actor
        let live = LiveResults(store: store, query: Query.all, as: Task.self)
        _ = (token, live)

        let waitFor = { (line: String) async -> Bool in
            await ObservationLifetimeTests.eventually { printed.withLock { $0 }.contains(line) }
        }
        #expect(await waitFor("2 Make tea"))
        try store.update("water-plants") { $0["priority"] = 5 }
        #expect(await waitFor("modified 1 -> 5"))
        try temp.writeFile(
            "water-plants.json",
            "{\"title\": \"Water the plants\", \"status\": \"todo\", \"priority\": \"high\"}")
        #expect(
            await ObservationLifetimeTests.eventually {
                printed.withLock { $0 }.contains {
                    $0.hasPrefix("invalid ") && $0.contains("water-plants.json:1:")
                        && $0.contains("at priority")
                }
            })
        try store.put("mop", ["title": "Mop", "status": "todo", "priority": 3])
        #expect(await waitFor("inserted mop Mop"))
        try store.delete("tea")
        #expect(await waitFor("deleted tea"))
        #expect(
            await ObservationLifetimeTests.eventually(onMain: {
                live.results.map(\.id) == ["mop", "water-plants"]
            }))
        token.invalidate()
    }
}
