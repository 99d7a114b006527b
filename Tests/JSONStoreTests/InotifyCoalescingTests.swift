import Glibc
import Testing

@testable import JSONStore

/// Turning inotify events into names to read now or later: tables of event sequences,
/// no kernel involved.
@Suite("inotify event coalescing")
struct InotifyCoalescingTests {
    static func event(_ mask: Int32, _ name: String?) -> Inotify.Event {
        Inotify.Event(mask: UInt32(bitPattern: mask), name: name.map { .text($0) })
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let events: @Sendable () -> [Inotify.Event]
        var now: Set<String> = []
        var later: Set<String> = []
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "vim save",
            events: {
                [
                    event(IN_MOVED_FROM, "a.json"), event(IN_MOVED_TO, "a.json~"),
                    event(IN_CREATE, "4913"), event(IN_CLOSE_WRITE, "4913"),
                    event(IN_DELETE, "4913"),
                    event(IN_CREATE, "a.json"), event(IN_MODIFY, "a.json"),
                    event(IN_CLOSE_WRITE, "a.json"),
                    event(IN_DELETE, "a.json~"),
                ]
            }, now: ["a.json", "a.json~", "4913"]),
        Case(
            name: "a writer still at work",
            events: {
                [
                    event(IN_CREATE, "x.json"), event(IN_MODIFY, "x.json"),
                ]
            }, later: ["x.json"]),
        Case(
            name: "the last event of a name decides",
            events: {
                [
                    event(IN_CLOSE_WRITE, "a.json"), event(IN_MODIFY, "a.json"),
                    event(IN_MODIFY, "b.json"), event(IN_CLOSE_WRITE, "b.json"),
                ]
            }, now: ["b.json"], later: ["a.json"]),
        Case(
            name: "touch alone is read now; a touch during a write waits",
            events: {
                [
                    event(IN_ATTRIB, "t.json"),
                    event(IN_MODIFY, "w.json"), event(IN_ATTRIB, "w.json"),
                ]
            }, now: ["t.json"], later: ["w.json"]),
        Case(
            name: "sed -i: a temp file renamed over the item",
            events: {
                [
                    event(IN_CREATE, "sedX1"), event(IN_MODIFY, "sedX1"), event(IN_ATTRIB, "sedX1"),
                    event(IN_CLOSE_WRITE, "sedX1"), event(IN_MOVED_FROM, "sedX1"),
                    event(IN_MOVED_TO, "a.json"),
                ]
            }, now: ["sedX1", "a.json"]),
        Case(name: "rm", events: { [event(IN_DELETE, "a.json")] }, now: ["a.json"]),
    ]

    @Test("names to read now and later", arguments: cases)
    func coalesce(_ example: Case) {
        let batch = InotifyWatcher.coalesce(example.events())
        #expect(Set(batch.readNow.map(\.string)) == example.now)
        #expect(Set(batch.readLater.map(\.string)) == example.later)
        #expect(
            !batch.overflow && !batch.directoryGone && !batch.directoryChanged
                && batch.readError == nil)
    }

    @Test("overflow, the directory going, and names that are not UTF-8")
    func specialEvents() {
        var batch = InotifyWatcher.coalesce([Self.event(IN_Q_OVERFLOW, nil)])
        #expect(batch.overflow && !batch.directoryGone)
        batch = InotifyWatcher.coalesce([
            Self.event(IN_DELETE_SELF, nil), Self.event(IN_IGNORED, nil),
        ])
        #expect(batch.directoryGone && !batch.overflow)
        batch = InotifyWatcher.coalesce([Self.event(IN_MOVE_SELF, nil)])
        #expect(batch.directoryGone)
        batch = InotifyWatcher.coalesce([Self.event(IN_ATTRIB, nil)])  // chmod of the directory
        #expect(batch.directoryChanged && !batch.directoryGone && !batch.isEmpty)
        batch = InotifyWatcher.coalesce([
            Inotify.Event(
                mask: UInt32(IN_CREATE), name: .notUTF8([0x62, 0xFF] + Array(".json".utf8)))
        ])
        #expect(batch.undecodable.map(\.string) == [#"b\xff.json"#])
        #expect(batch.readNow.isEmpty && batch.readLater.isEmpty)
    }

    @Test("a read error is reported as itself, not as an overflow")
    func readError() {
        var received: [WatchBatch] = []
        InotifyWatcher.drain(
            Inotify(descriptor: FileDescriptor(rawValue: 1_000_000)),
            InotifyWatcher.Watches(path: "/nonexistent", store: 1), into: { received.append($0) })
        #expect(received.count == 1)
        #expect(received.first?.readError == Errno(rawValue: EBADF))
        #expect(received.first?.overflow == false)
    }

    @Test(
        "the private folder's events say the schema may have changed; its own end does not end the store"
    )
    func privateFolderEvents() {
        let store: Int32 = 1
        let folder: Int32 = 2
        func event(_ watch: Int32, _ mask: Int32, _ name: String?) -> Inotify.Event {
            Inotify.Event(watch: watch, mask: UInt32(mask), name: name.map { .text($0) })
        }
        #expect(InotifyWatcher.schemaChanged([event(folder, IN_MOVED_TO, "schema.json")]))
        #expect(InotifyWatcher.schemaChanged([event(folder, IN_CLOSE_WRITE, "schema.json")]))
        #expect(!InotifyWatcher.schemaChanged([event(folder, IN_CLOSE_WRITE, "mirror.json")]))
        #expect(InotifyWatcher.schemaChanged([event(folder, IN_IGNORED, nil)]))
        #expect(
            InotifyWatcher.privateFolderCame(
                in: [event(store, IN_CREATE | IN_ISDIR, ".jsonstore")], store: store))
        #expect(
            !InotifyWatcher.privateFolderCame(
                in: [event(store, IN_CREATE, ".jsonstore")], store: store), "a file of that name")
        #expect(
            !InotifyWatcher.privateFolderCame(
                in: [event(folder, IN_CREATE | IN_ISDIR, ".jsonstore")], store: store))
    }
}
