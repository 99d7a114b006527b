#if !FUZZING
    @testable import JSONStore
#endif

// The live reducer's property, shared by the libFuzzer target (Tests/Fuzz/ReducerFuzz.swift,
// built by scripts/fuzz with the library's sources as one module, -D FUZZING) and by
// FuzzCorpusTests, which replays the checked-in corpus and random programs under swift test.
//
// The input is a program of file events on six ids: writes, invalid writes, removals,
// time passing, due deadlines, publications. Each publication is applied to incremental
// results, which must equal results built from scratch; at the end, with every deadline
// past, the published snapshot must equal the files on disk (an invalid file keeping a
// value it really had). The same publications grouped (by a member some items lack and
// some hold as an array, summing a number) must apply as a sectioned table applies them
// (`requireSections`).

/// Runs `program` through the reducer against a model of the files.
///
/// - Throws: `PropertyFailure` saying which property failed.
func reducerProperty(_ program: UnsafeBufferPointer<UInt8>) throws(PropertyFailure) {
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
            // The title's last digit picks a group and a number to sum.
            let digit = Int(String(title.last!))!
            var object: JSONObject = [
                "id": .string(id), "title": .string(title),
                "n": .number(JSONNumber(text: ["0.1", "0.2", "3", "-1.5"][digit % 4])!),
            ]
            // 2 puts the item in both groups (an array); 3 in none (an empty array for the
            // first three ids, no member for the others).
            switch digit % 4 {
            case 2: object["group"] = .array([.string("g1"), .string("g0")])
            case 3: if id < "id3" { object["group"] = .array([]) }
            default: object["group"] = .string("g\(digit % 2)")
            }
            return .item(Item(id: id, object: object, fingerprint: Fingerprint(Array(title.utf8))))
        case .broken: return .invalid(StoreError(code: .invalidJSON, message: "broken"))
        case .missing: return .missing
        }
    }
    reducer.load(
        ids.filter { disk[$0] != nil }, ids.filter { disk[$0] != nil }.map(outcome), badNames: [:])
    let query = Query.all.sorted(by: "title")
    var results = Results<Item>.initial(query, reducer.published, coder: .items)
    let groupedQuery = query.grouped(by: "group", aggregating: ["n"])
    var grouped = Results<Item>.initial(groupedQuery, reducer.published, coder: .items)
    var now = 0.0

    func publish() throws(PropertyFailure) {
        let previous = reducer.published
        guard case .publish(let snapshot, let changed, let names) = reducer.publish(at: now) else {
            return
        }
        try require(snapshot.version == previous.version + 1)
        snapshot.entries._checkInvariants()
        let changes = changed.map {
            EntryChange(id: $0.string, old: previous.entries[$0], new: snapshot.entries[$0])
        }
        let (next, changeSet) = results.applying(changes, names: names, snapshot: snapshot)
        let fresh = Results<Item>.initial(query, snapshot, coder: .items)
        try require(next.map(\.id) == fresh.map(\.id), "incremental results differ")
        try require(next.map(\.object) == fresh.map(\.object))
        var list = results.map(\.id)
        for index in changeSet.deletions.reversed() { list.remove(at: index) }
        for index in changeSet.insertions { list.insert(next[index].id, at: index) }
        try require(list == next.map(\.id), "the change set does not apply")
        results = next
        // The same changes in sections, with each section's figures.
        let (nextGrouped, sectioned) = grouped.applying(changes, names: names, snapshot: snapshot)
        try requireSections(
            sectioned, from: grouped, to: nextGrouped,
            fresh: Results<Item>.initial(groupedQuery, snapshot, coder: .items), aggregated: "n")
        grouped = nextGrouped
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
            try publish()
        }
    }
    // Settle: every deadline past, every file read as it is now.
    for _ in 0..<3 {
        now += 1
        let (names, gone) = reducer.takeDue(at: now)
        read(names, gone: gone)
    }
    try publish()
    try publish()
    try require(reducer.isSettled, "not settled at the end")
    for id in ids {
        let entry = reducer.published.entries[UTF8Key(id)]
        switch disk[id] ?? .missing {
        case .missing: try require(entry == nil, "\(id) is gone but still there")
        case .item(let title):
            try require(
                entry?.item(id: id)?["title"]?.stringValue == title && entry?.error == nil,
                "\(id) is not \(title)")
        case .broken:
            try require(entry?.error != nil, "\(id) is broken but not flagged")
            if let kept = entry?.item(id: id)?["title"]?.stringValue {
                try require(
                    written[id, default: []].contains(kept), "\(id) kept a value it never had")
            }
        }
    }
}
