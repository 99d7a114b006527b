import Dispatch
import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// A to-do as a library user declares it.
struct Todo: Codable, Identifiable, Sendable, Equatable {
    var id: String
    var title: String
    var status: String
    var priority: Int
}

/// Records typed changes, and checks each update against the previous list by ids.
final class TypedRecorder: Sendable {
    struct State: Sendable {
        var initial: Results<Todo>?
        var results = Results<Todo>()
        var updates: [ChangeSet<Todo>] = []
        var violations: [String] = []
    }

    let state = Locked(State())
    var current: State { state.withLock { $0 } }

    func record(_ change: StoreChange<Todo>) {
        state.withLock { s in
            switch change {
            case .initial(let results):
                s.initial = results
                s.results = results
            case .update(let results, let changes):
                var ids = s.results.map(\.id)
                for index in changes.deletions.reversed() { ids.remove(at: index) }
                for index in changes.insertions { ids.insert(results[index].id, at: index) }
                if ids != results.map(\.id) {
                    s.violations.append("\(ids) is not \(results.map(\.id))")
                }
                s.results = results
                s.updates.append(changes)
            case .error(let error):
                s.violations.append("error \(error)")
            }
        }
    }

    func wait(timeout: Double = 20, until predicate: @Sendable (State) -> Bool) async -> Bool {
        let deadline = DispatchTime.now() + timeout
        while DispatchTime.now() < deadline {
            if predicate(current) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return predicate(current)
    }
}

@Suite("Typed live results")
struct TypedLiveTests {
    static func store() throws -> TemporaryStore { try TemporaryStore.tasks() }

    @Test("a priority change is a modification with old and new values, and a move")
    func modificationAndMove() async throws {
        let temp = try Self.store()
        let recorder = TypedRecorder()
        let token = temp.store.observe(
            Todo.self, Query.all.sorted(by: "priority", descending: true),
            on: DispatchQueue(label: "typed")
        ) { change in recorder.record(change) }
        #expect(await recorder.wait { $0.initial != nil })
        #expect(recorder.current.results.map(\.id) == ["taxes", "tea", "bike"])
        #expect(recorder.current.results.first?.title == "File taxes")

        try temp.store.update("bike") { $0["priority"] = 9 }
        #expect(await recorder.wait { $0.updates.count == 1 })
        let changes = try #require(recorder.current.updates.first)
        #expect(changes.inserted.isEmpty && changes.deleted.isEmpty)
        #expect(changes.modified.map { [$0.old.priority, $0.new.priority] } == [[1, 9]])
        #expect(changes.moves.map { [$0.from, $0.to] } == [[2, 0]])
        #expect(changes.deletions == [2] && changes.insertions == [0])
        #expect(recorder.current.results.map(\.id) == ["bike", "taxes", "tea"])
        #expect(recorder.current.violations.isEmpty)
        token.invalidate()
    }

    @Test("a hand-formatted file that does not decode when observing starts: error located")
    func decodeFailureAtStart() async throws {
        // Formatted by hand (not as jsonstore writes), read by the first load, which keeps
        // no bytes: the line and column once went missing here.
        let temp = try Self.store()
        try temp.writeFile(
            "tea.json",
            "{\"title\": \"Make tea\", \"status\": \"todo\",\n   \"priority\": \"high\"}")
        let recorder = TypedRecorder()
        let token = temp.store.observe(Todo.self, on: DispatchQueue(label: "typed")) {
            recorder.record($0)
        }
        #expect(await recorder.wait { $0.initial != nil })
        let error = recorder.current.results.invalid.first { $0.name == "tea.json" }?.error
        #expect(error?.message.hasPrefix("at priority: ") == true, "\(String(describing: error))")
        #expect(error?.line == 2 && error?.column == 16, "\(String(describing: error))")
        token.invalidate()
    }

    @Test(
        "an item that does not decode is invalid for the observation: last value kept, error located"
    )
    func decodeFailure() async throws {
        let temp = try Self.store()
        let recorder = TypedRecorder()
        let token = temp.store.observe(Todo.self, on: DispatchQueue(label: "typed")) {
            recorder.record($0)
        }
        #expect(await recorder.wait { $0.initial != nil })

        try temp.writeFile(
            "tea.json",
            "{\n  \"title\": \"Make tea\",\n  \"status\": \"todo\",\n  \"priority\": \"high\"\n}\n")
        #expect(await recorder.wait { $0.updates.count == 1 })
        var state = recorder.current
        let bad = try #require(state.updates.last?.invalid.first)
        #expect(bad.name == "tea.json" && bad.id == "tea")
        #expect(bad.error.code == .invalidItem)
        #expect(bad.error.message.hasPrefix("at priority: "))
        #expect(bad.error.line == 4 && bad.error.column == 15)
        #expect(bad.error.description.hasPrefix(temp.path + "/tea.json:4:15: at priority: "))
        // The last decoded value stays, flagged.
        #expect(state.results.map(\.id) == ["bike", "taxes", "tea"])
        #expect(state.results[2].priority == 2)
        #expect(state.results.error(for: "tea")?.line == 4)
        #expect(state.results.error(for: "bike") == nil)
        #expect(state.results.invalid.map(\.name) == ["tea.json"])

        // A new file missing a member is never in the results, only invalid.
        try temp.writeFile("mop.json", "{\n  \"title\": \"Mop\",\n  \"status\": \"todo\"\n}\n")
        #expect(await recorder.wait { $0.updates.count == 2 })
        state = recorder.current
        #expect(state.updates.last?.insertions == [])
        #expect(state.updates.last?.invalid.map(\.name) == ["mop.json"])
        #expect(state.results.error(for: "mop")?.message.contains("priority") == true)
        #expect(state.results.error(for: "mop")?.line == 1)

        // Fixed: resolved, and a modification to the new value.
        try temp.store.update("tea") { $0["priority"] = 5 }
        #expect(await recorder.wait { $0.updates.count == 3 })
        state = recorder.current
        #expect(state.updates.last?.resolved == ["tea.json"])
        #expect(state.updates.last?.modified.map(\.new.priority) == [5])
        #expect(state.results.error(for: "tea") == nil)
        #expect(state.results.invalid.map(\.name) == ["mop.json"])
        #expect(state.violations.isEmpty)
        token.invalidate()
    }

    @Test("a typed predicate and a key path order, ties by id")
    func typedQuery() async throws {
        let temp = try Self.store()
        try temp.writeFile(
            "mop.json", "{\"title\": \"Mop\", \"status\": \"todo\", \"priority\": 3}")
        let recorder = TypedRecorder()
        let query = Query.all.filter { (task: Todo) in task.status != "done" }
            .sorted(by: \Todo.priority, descending: true)
        let token = temp.store.observe(Todo.self, query, on: DispatchQueue(label: "typed")) {
            recorder.record($0)
        }
        #expect(await recorder.wait { $0.initial != nil })
        #expect(recorder.current.results.map(\.id) == ["mop", "taxes", "tea"])  // 3, 3 (by id), 2

        try temp.store.update("bike") { $0["status"] = "todo" }  // enters the filter
        #expect(await recorder.wait { $0.updates.count == 1 })
        #expect(recorder.current.updates.last?.inserted.map(\.id) == ["bike"])
        try temp.store.update("mop") { $0["status"] = "done" }  // leaves it
        #expect(await recorder.wait { $0.updates.count == 2 })
        #expect(recorder.current.updates.last?.deleted.map(\.id) == ["mop"])
        try temp.store.update("tea") { $0["priority"] = 7 }  // moves to the top
        #expect(await recorder.wait { $0.updates.count == 3 })
        #expect(recorder.current.updates.last?.moves.map(\.to) == [0])
        #expect(recorder.current.results.map(\.id) == ["tea", "taxes", "bike"])
        #expect(recorder.current.results.index(ofID: "taxes") == 1)
        #expect(recorder.current.violations.isEmpty)
        // The same query works on untyped items and in a one-off listing.
        #expect(query.apply(to: try temp.store.load().items).map(\.id) == ["tea", "taxes", "bike"])
        token.invalidate()
    }

    @Test("Transaction.item(_:as:) and JSONStore.item(_:as:) decode")
    func itemAs() throws {
        let temp = try Self.store()
        #expect(try temp.store.item("tea", as: Todo.self)?.priority == 2)
        try temp.store.write { tx in
            try tx.put("tea", ["title": "Tea", "status": "todo", "priority": 4])
            #expect(try tx.item("tea", as: Todo.self)?.priority == 4)
            #expect(try tx.item("nope", as: Todo.self) == nil)
        }
    }
}
