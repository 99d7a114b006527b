// libFuzzer target for the live reducer, built with the library's sources by scripts/fuzz
// (swiftc -sanitize=fuzzer,address). Not part of the package build.
//
// The input is a program of file events on six ids: writes, invalid writes, removals,
// time passing, due deadlines, publications. Each publication is applied to incremental
// results, which must equal results built from scratch; at the end, with every deadline
// past, the published snapshot must equal the files on disk (an invalid file keeping a
// value it really had).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReducer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let program = UnsafeBufferPointer(start: data, count: size)
    var reducer = StoreReducer(timing: .init(deletionGrace: 0.05, fallbackDelay: 0.2))
    let ids = (0..<6).map { "id\($0)" }
    enum File {
        case item(String)
        case broken, missing
    }
    var disk: [String: File] = [:]
    var written: [String: Set<String>] = [:]  // every title each id has had
    for id in ids.prefix(3) {
        disk[id] = .item("\(id)-0")
        written[id, default: []].insert("\(id)-0")
    }
    func outcome(_ id: String) -> ItemFile.Outcome {
        switch disk[id] ?? .missing {
        case .item(let title):
            let object: JSONObject = ["id": .string(id), "title": .string(title)]
            return .item(Item(id: id, object: object, fingerprint: Fingerprint(Array(title.utf8))))
        case .broken: return .invalid(StoreError(code: .invalidJSON, message: "broken"))
        case .missing: return .missing
        }
    }
    reducer.load(
        ids.filter { disk[$0] != nil }, ids.filter { disk[$0] != nil }.map(outcome), badNames: [:])
    let query = Query.all.sorted(by: "title")
    var results = Results<Item>.initial(query, reducer.published, coder: .items)
    var now = 0.0

    func publish() {
        let previous = reducer.published
        guard case .publish(let snapshot, let changed, let names) = reducer.publish(at: now) else {
            return
        }
        precondition(snapshot.version == previous.version + 1)
        snapshot.entries._checkInvariants()
        let changes = changed.map {
            EntryChange(id: $0.string, old: previous.entries[$0], new: snapshot.entries[$0])
        }
        let (next, changeSet) = results.applying(changes, names: names, snapshot: snapshot)
        let fresh = Results<Item>.initial(query, snapshot, coder: .items)
        precondition(next.map(\.id) == fresh.map(\.id), "incremental results differ")
        precondition(next.map(\.object) == fresh.map(\.object))
        var list = results.map(\.id)
        for index in changeSet.deletions.reversed() { list.remove(at: index) }
        for index in changeSet.insertions { list.insert(next[index].id, at: index) }
        precondition(list == next.map(\.id), "the change set does not apply")
        results = next
    }

    func read(_ names: [String], gone: Set<UTF8Key>) {
        for name in names where name.hasSuffix(".json") {
            let id = String(name.dropLast(5))
            _ = reducer.fileRead(
                id, outcome(id), at: now, missingIsGone: gone.contains(UTF8Key(id)))
        }
    }

    var i = 0
    while i + 2 < program.count {
        let (op, id, arg) = (program[i] % 7, ids[Int(program[i + 1]) % ids.count], program[i + 2])
        i += 3
        switch op {
        case 0:
            let title = "\(id)-\(arg % 4)"
            disk[id] = .item(title)
            written[id, default: []].insert(title)
            _ = reducer.fileRead(id, outcome(id), at: now)
        case 1:
            disk[id] = .broken
            _ = reducer.fileRead(id, outcome(id), at: now, beingWritten: arg & 1 == 1)
        case 2:
            disk[id] = .missing
            _ = reducer.fileRead(id, outcome(id), at: now)
        case 3:
            now += Double(arg % 16) * 0.01
        case 4:
            let (names, gone) = reducer.takeDue(at: now)
            read(names, gone: gone)
        case 5:
            _ = reducer.fileRead(id, outcome(id), at: now)  // a stray event: read as it is
        default:
            publish()
        }
    }
    // Settle: every deadline past, every file read as it is now.
    for _ in 0..<3 {
        now += 1
        let (names, gone) = reducer.takeDue(at: now)
        read(names, gone: gone)
    }
    publish()
    publish()
    precondition(reducer.isSettled, "not settled at the end")
    for id in ids {
        let entry = reducer.published.entries[UTF8Key(id)]
        switch disk[id] ?? .missing {
        case .missing: precondition(entry == nil, "\(id) is gone but still there")
        case .item(let title):
            precondition(
                entry?.item?["title"]?.stringValue == title && entry?.error == nil,
                "\(id) is not \(title)")
        case .broken:
            precondition(entry?.error != nil, "\(id) is broken but not flagged")
            if let kept = entry?.item?["title"]?.stringValue {
                precondition(
                    written[id, default: []].contains(kept), "\(id) kept a value it never had")
            }
        }
    }
    return 0
}
