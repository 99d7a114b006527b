import Testing

@testable import JSONStore

/// The pure reducer of the live pipeline, driven by tables of file outcomes and made-up
/// times: no file system, no clock, no queue.
@Suite("Live reducer")
struct StoreReducerTests {
    static let timing = StoreReducer.Timing(deletionGrace: 0.05, fallbackDelay: 0.2)

    static func item(_ id: String, _ title: String) -> ItemFile.Outcome {
        .item(
            Item(
                id: id, object: ["id": .string(id), "title": .string(title)],
                fingerprint: Fingerprint(Array(title.utf8))))
    }

    static let broken = ItemFile.Outcome.invalid(
        StoreError(code: .invalidJSON, message: "unexpected end of input"))

    /// One step of a scenario.
    enum Step {
        /// The file of an id was read at a time.
        case read(String, ItemFile.Outcome, at: Double, beingWritten: Bool = false)
        /// The deadlines due at a time are taken, and their names read: the outcome of
        /// each name's id as given.
        case due(at: Double, [String: ItemFile.Outcome])
        /// A full rescan found these files.
        case resync([(String, ItemFile.Outcome)])
        /// A bad name appeared (true) or went (false).
        case badName(String, Bool)
        /// Publishing at a time: the ids and names published, `nil` for nothing, or
        /// `wait` for "wait until" that time.
        case publish(at: Double, ids: [String]?, names: [String] = [])
        case wait(at: Double, until: Double)
    }

    /// A scenario: the ids loaded first, the steps, and the ids (with titles) at the end.
    struct Scenario: CustomTestStringConvertible, Sendable {
        let name: String
        let loaded: [String]
        let steps: @Sendable () -> [Step]
        let end: [String: String]
        var invalidAtEnd: [String] = []
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(
            name: "vim save: renamed away, written anew, one modification", loaded: ["a", "b"],
            steps: {
                [
                    .read("a", .missing, at: 0),
                    .publish(at: 0, ids: nil),
                    .read("a", item("a", "a2"), at: 0.01),
                    .publish(at: 0.01, ids: ["a"]),
                ]
            }, end: ["a": "a2", "b": "b"]),
        Scenario(
            name: "rm: a deletion once the grace period is over", loaded: ["a", "b"],
            steps: {
                [
                    .read("a", .missing, at: 0),
                    .publish(at: 0, ids: nil),
                    .due(at: 0.04, [:]),
                    .due(at: 0.05, ["a.json": .missing]),
                    .publish(at: 0.05, ids: ["a"]),
                ]
            }, end: ["b": "b"]),
        Scenario(
            name: "mv a c: the insertion waits for the deletion, one update", loaded: ["a", "b"],
            steps: {
                [
                    .read("a", .missing, at: 0),
                    .read("c", item("c", "a"), at: 0),
                    .wait(at: 0, until: 0.05),
                    .publish(at: 0.02, ids: nil),
                    .due(at: 0.05, ["a.json": .missing]),
                    .publish(at: 0.05, ids: ["a", "c"]),
                ]
            }, end: ["b": "b", "c": "a"]),
        Scenario(
            name: "steady deletions hold other changes one grace period at most",
            loaded: ["a", "b", "x"],
            steps: {
                [
                    .read("a", .missing, at: 0),
                    .read("c", item("c", "c"), at: 0),
                    .wait(at: 0, until: 0.05),
                    .read("b", .missing, at: 0.03),
                    .read("d", item("d", "d"), at: 0.04),
                    .due(at: 0.05, ["a.json": .missing]),
                    .publish(at: 0.05, ids: ["a", "c", "d"]),  // b's deletion is still pending
                    .read("e", item("e", "e"), at: 0.06),
                    .wait(at: 0.06, until: 0.11),
                    .due(at: 0.08, ["b.json": .missing]),
                    .publish(at: 0.08, ids: ["b", "e"]),
                ]
            }, end: ["c": "c", "d": "d", "e": "e", "x": "x"]),
        Scenario(
            name: "an id edited then deleted waits alone; the rest goes out after one grace period",
            loaded: ["a", "b"],
            steps: {
                [
                    .read("a", item("a", "a2"), at: 0),
                    .read("b", item("b", "b2"), at: 0),
                    .read("a", .missing, at: 0.001),
                    .wait(at: 0.001, until: 0.051),
                    .publish(at: 0.06, ids: ["b"]),  // a waits for its own deadline to be taken
                    .due(at: 0.06, ["a.json": item("a", "a3")]),  // back: a modification after all
                    .publish(at: 0.06, ids: ["a"]),
                ]
            }, end: ["a": "a3", "b": "b2"]),
        Scenario(
            name: "a bad name appearing and going", loaded: ["a"],
            steps: {
                [
                    .badName("bad\u{1}.json", true),
                    .publish(at: 0, ids: [], names: ["bad\u{1}.json"]),
                    .badName("bad\u{1}.json", false),
                    .publish(at: 0.1, ids: [], names: ["bad\u{1}.json"]),
                    .badName("bad\u{1}.json", false),
                    .publish(at: 0.2, ids: nil),
                ]
            }, end: ["a": "a"]),
        Scenario(
            name: "an overflow rescan removes and adds", loaded: ["a", "b"],
            steps: {
                [
                    .read("a", .missing, at: 0),  // a pending deletion the rescan settles
                    .resync([("b", item("b", "b2")), ("c", item("c", "c"))]),
                    .publish(at: 0.01, ids: ["a", "b", "c"]),
                ]
            }, end: ["b": "b2", "c": "c"]),
        Scenario(
            name: "a file turning invalid keeps its value, flagged, and back", loaded: ["a"],
            steps: {
                [
                    .read("a", broken, at: 0),
                    .publish(at: 0, ids: ["a"], names: ["a.json"]),
                    .read("a", broken, at: 0.1),  // the same error: nothing
                    .publish(at: 0.1, ids: nil),
                    .read("a", item("a", "a2"), at: 0.2),
                    .publish(at: 0.2, ids: ["a"], names: ["a.json"]),
                ]
            }, end: ["a": "a2"]),
        Scenario(
            name: "a half-written file is read again after the fallback delay", loaded: ["a"],
            steps: {
                [
                    .read("a", broken, at: 0, beingWritten: true),
                    .publish(at: 0, ids: nil),
                    .due(at: 0.1, [:]),
                    .due(at: 0.2, ["a.json": item("a", "a2")]),
                    .publish(at: 0.2, ids: ["a"]),
                ]
            }, end: ["a": "a2"]),
        Scenario(
            name: "identical bytes are no change at all", loaded: ["a"],
            steps: {
                [
                    .read("a", item("a", "a"), at: 0),
                    .publish(at: 0, ids: nil),
                ]
            }, end: ["a": "a"]),
        Scenario(
            name: "a new invalid file is reported, not inserted", loaded: ["a"],
            steps: {
                [
                    .read("n", broken, at: 0),
                    .publish(at: 0, ids: ["n"], names: ["n.json"]),
                ]
            }, end: ["a": "a"], invalidAtEnd: ["n.json"]),
    ]

    @Test("scenarios", arguments: scenarios)
    func scenario(_ scenario: Scenario) {
        var reducer = StoreReducer(timing: Self.timing)
        reducer.load(scenario.loaded, scenario.loaded.map { Self.item($0, $0) }, badNames: [:])
        var version = 1
        for (n, step) in scenario.steps().enumerated() {
            switch step {
            case .read(let id, let outcome, let time, let writing):
                _ = reducer.fileRead(id, outcome, at: time, beingWritten: writing)
            case .due(let time, let outcomes):
                let (names, gone) = reducer.takeDue(at: time)
                #expect(Set(names) == Set(outcomes.keys), "step \(n): due \(names)")
                for name in names {
                    let id = String(name.dropLast(5))
                    _ = reducer.fileRead(
                        id, outcomes[name] ?? .missing, at: time,
                        missingIsGone: gone.contains(UTF8Key(id)))
                }
            case .resync(let files):
                reducer.resync(files.map(\.0), files.map(\.1), badNames: [:])
            case .badName(let name, let present):
                let file =
                    present
                    ? InvalidFile.badName(
                        name, id: String(name.dropLast(5)), reason: "control character", path: "/s")
                    : nil
                reducer.badName(name, file)
            case .publish(let time, let ids, let names):
                switch reducer.publish(at: time) {
                case .none:
                    #expect(ids == nil, "step \(n): nothing published, expected \(ids ?? [])")
                case .wait(let until):
                    Issue.record("step \(n): waits until \(until)")
                case .publish(let snapshot, let changed, let changedNames):
                    version += 1
                    #expect(snapshot.version == version)
                    #expect(changed.map(\.string).sorted() == ids, "step \(n)")
                    #expect(changedNames.map(\.string).sorted() == names, "step \(n)")
                }
            case .wait(let time, let until):
                guard case .wait(let actual) = reducer.publish(at: time) else {
                    Issue.record("step \(n): expected a wait")
                    continue
                }
                #expect(abs(actual - until) < 1e-9, "step \(n)")
            }
        }
        var end: [String: String] = [:]
        reducer.published.entries.forEach { id, entry in
            end[id.string] = entry.item(id: id.string)?["title"]?.stringValue
        }
        #expect(end == scenario.end)
        #expect(reducer.published.invalidFiles.map(\.name) == scenario.invalidAtEnd)
        #expect(reducer.isSettled)
    }

    @Test("a remote store's revision: listed, advanced, never back but by a new listing")
    func revisions() {
        var reducer = StoreReducer(timing: Self.timing, origin: "f1")
        reducer.load(["a"], [Self.item("a", "a1")], badNames: [:], revision: 10)
        #expect(reducer.published.revision == 10)
        #expect(reducer.published.origin == "f1")
        let advanced = reducer.advance(to: 12)
        #expect(advanced)
        _ = reducer.fileRead("a", Self.item("a", "a2"), at: 0, missingIsGone: true)
        guard case .publish(let snapshot, _, _) = reducer.publish(at: 0) else {
            Issue.record("a change at revision 12 is published")
            return
        }
        #expect(snapshot.revision == 12)
        let late = reducer.advance(to: 11)  // a late progress report
        #expect(!late)
        #expect(reducer.revision == 12)
        // A restored etcd lists at an older revision: the listing says where the store is.
        reducer.resync(["a"], [Self.item("a", "a2")], badNames: [:], revision: 5)
        #expect(reducer.revision == 5)
    }
}
