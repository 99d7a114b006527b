import Foundation
import Glibc
import TestSupport
import Testing

@_spi(Testing) @testable import JSONStore

/// A writer killed (SIGKILL) at each step of a batch, of an undo, or of a watcher recording
/// a hand edit: afterwards the history reads, its newest entry of each item is the file as
/// it is, and no change is recorded twice.
@Suite("The history when a writer is killed")
struct HistoryFaultTests {
    /// A store of items a, b, c, each recorded.
    static func store() throws -> TemporaryStore {
        let temp = try TemporaryStore()
        for id in ["a", "b", "c"] { try temp.store.put(id, ["title": .string(id.uppercased())]) }
        return temp
    }

    /// Runs the worker's `fault POINT TIME work…`: it must die by SIGKILL there.
    static func killed(at point: FaultPoint, time: Int = 1, _ work: [String]) throws {
        let (status, output) = try HelperProcess.run(
            ["fault", point.rawValue, String(time)] + work)
        #expect(status == SIGKILL && output.isEmpty, "\(point) \(time): \(status) \(output)")
    }

    /// What a reader finds afterwards: each item's newest entry is its file, and no entry
    /// repeats the one before it.
    static func expectWhole(_ temp: TemporaryStore, _ ids: [String], _ label: String) throws {
        let store = try JSONStore(directory: temp.path)  // rolls a torn batch forward
        for id in ids {
            let entries = try store.history(of: id)
            let path = temp.path + "/" + id + ".json"
            if let bytes = FileManager.default.contents(atPath: path) {
                let newest = try #require(entries.first, "\(label): \(id) has no entry")
                #expect(newest.kind != .deleted, "\(label): \(id)")
                #expect(newest.fingerprint == Fingerprint(Array(bytes)), "\(label): \(id)")
            } else {
                #expect(entries.first?.kind == .deleted, "\(label): \(id): \(entries)")
            }
            for (newer, older) in zip(entries, entries.dropFirst()) {
                let same = newer.kind == older.kind && newer.fingerprint == older.fingerprint
                #expect(
                    !same, "\(label): \(id) recorded twice at \(older.revision), \(newer.revision)")
            }
        }
        let report = try #require(store.history).journal.read { _ in }
        #expect(report.damage.isEmpty, "\(label): \(report.damage)")
    }

    @Test(
        "a batch killed at each step, its history synced by the directory's sync or its own",
        arguments: [
            ("write", FaultPoint.prepared, 1), ("write", .renamed, 1), ("write", .renamed, 2),
            ("write", .placed, 1), ("write", .appended, 1), ("write", .synced, 1),
            ("write-synced", .placed, 1), ("write-synced", .appended, 1),
            ("write-synced", .synced, 1),
        ])
    func batch(work: String, point: FaultPoint, time: Int) async throws {
        let temp = try Self.store()
        let path = temp.path
        try await blocking { try Self.killed(at: point, time: time, [work, path]) }
        try Self.expectWhole(temp, ["a", "b", "c"], "\(work) \(point) \(time)")
    }

    @Test(
        "an undo killed at each step",
        arguments: [FaultPoint.prepared, .placed, .appended, .synced])
    func undo(point: FaultPoint) async throws {
        let temp = try Self.store()
        try temp.store.put("a", ["title": "A, changed"])
        let path = temp.path
        try await blocking { try Self.killed(at: point, ["undo", path, "a"]) }
        try Self.expectWhole(temp, ["a", "b", "c"], "\(point)")
    }

    @Test(
        "a watcher killed while it records a hand edit",
        arguments: [FaultPoint.drafted, .appended, .synced])
    func watcher(point: FaultPoint) async throws {
        let temp = try Self.store()
        let path = temp.path
        let status = try await blocking { () throws -> Int32? in
            let (process, pipe) = try HelperProcess.start([
                "fault", point.rawValue, "1", "watch", path,
            ])
            defer { HelperProcess.stop(process) }
            guard LineReader(pipe).next(within: 20) == "ready" else { return nil }
            try Data(#"{"title": "B, edited by hand"}"#.utf8).write(
                to: URL(fileURLWithPath: path + "/b.json"))
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            return process.isRunning ? nil : process.terminationStatus
        }
        #expect(status == SIGKILL, "\(point)")
        try Self.expectWhole(temp, ["a", "b", "c"], "\(point)")
    }
}
