import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// A first load built a block at a time: the files read in blocks, their outcomes handed
/// on in the listing's order, and the snapshot's tree built from them as they come.
@Suite("A load built while its files are read")
struct StoreLoadTests {
    /// A store of `count` items, every seventh file broken, every eleventh a directory
    /// named like an item; and the listing with an id whose file is not there.
    static func store(_ count: Int) throws -> (TemporaryStore, [String]) {
        let temp = try TemporaryStore()
        var ids: [String] = []
        for n in 0..<count {
            let id = String(format: "item-%03d", n)
            ids.append(id)
            if n % 11 == 5 {
                try FileManager.default.createDirectory(
                    atPath: temp.path + "/\(id).json", withIntermediateDirectories: false)
            } else {
                try temp.writeFile("\(id).json", n % 7 == 3 ? #"{"n": "# : #"{"n": \#(n)}"#)
            }
        }
        ids.insert("item-000a", at: 1)  // listed, but gone before it was read
        return (temp, ids)
    }

    static func describe(_ outcome: ItemFile.Outcome) -> String {
        switch outcome {
        case .item(let item): "item \(item.id) \(item.bytes.array)"
        case .invalid(let error): "invalid \(error.code)"
        case .missing: "missing"
        }
    }

    @Test(
        "blocks of any size hand every file's outcome in order, as one whole read does",
        arguments: [(1, 1), (7, 1), (7, 1000), (64, 4), (1000, 1)])
    func blocks(blockSize: Int, parallelAbove: Int) throws {
        let (temp, ids) = try Self.store(90)
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        let whole = ItemFile.readMany(
            ids, in: dir, path: temp.path, reader: JSONReader(), parallelAbove: 1_000_000)
        let progress = ProgressCounter()
        var handed: [(String, ItemFile.Outcome)] = []
        ItemFile.readInBlocks(
            ids, in: dir, path: temp.path, reader: JSONReader(), parallelAbove: parallelAbove,
            progress: progress, blockSize: blockSize
        ) { handed.append(($0, $1)) }
        #expect(handed.map(\.0) == ids)
        #expect(handed.map { Self.describe($0.1) } == whole.map(Self.describe))
        #expect(progress.value == ids.count)
        // Broken, directory and missing files are all there, each as what it is.
        #expect(whole.contains { if case .missing = $0 { true } else { false } })
        #expect(whole.filter { if case .invalid = $0 { true } else { false } }.count >= 2)
    }

    @Test("the tree holds the files there, in order; the invalid ones with their last value")
    func tree() throws {
        let a = #"{"v": 1}"#
        let item = Item(
            id: "b", bytes: ItemBytes(Array(a.utf8)), fingerprint: Fingerprint(Array(a.utf8)))
        let broken = StoreError(code: .invalidJSON, message: "unexpected end of input")
        let badName = InvalidFile(name: "x y.json", id: nil, error: broken)
        var load = StoreLoad(badNames: [UTF8Key(badName.name): badName])
        load.add("a", .item(Item(id: "a", bytes: item.bytes, fingerprint: item.fingerprint)))
        load.add("a-b", .missing)
        load.add("b", .invalid(broken), lastValid: item)
        load.add("c", .item(Item(id: "c", bytes: item.bytes, fingerprint: item.fingerprint)))
        #expect(load.count == 3)
        var reducer = StoreReducer(timing: .init(deletionGrace: 1, fallbackDelay: 1))
        reducer.load(load)
        let snapshot = reducer.published
        var keys: [String] = []
        snapshot.entries.forEach { key, _ in keys.append(key.string) }
        #expect(keys == ["a", "b", "c"])
        #expect(snapshot.entries[UTF8Key("b")]?.item(id: "b")?.bytes == item.bytes)
        #expect(snapshot.entries[UTF8Key("b")]?.error?.code == .invalidJSON)
        #expect(Set(snapshot.invalid.keys.map(\.string)) == ["x y.json", "b.json"])
        #expect(snapshot.version == 1 && reducer.isLoaded)
    }

    @Test("a source's listing in its keys' order loads as the ids' byte order")
    func keysOrder() throws {
        // etcd lists `a-b.json` before `a.json` ('-' sorts before '.'); ids go `a` first.
        let text = #"{"v": 1}"#
        func item(_ id: String) -> ItemFile.Outcome {
            .item(
                Item(
                    id: id, bytes: ItemBytes(Array(text.utf8)),
                    fingerprint: Fingerprint(Array(text.utf8))))
        }
        var reducer = StoreReducer(timing: .init(deletionGrace: 1, fallbackDelay: 1))
        reducer.load(["a-b", "a", "b"], [item("a-b"), item("a"), .missing], badNames: [:])
        var keys: [String] = []
        reducer.published.entries.forEach { key, _ in keys.append(key.string) }
        #expect(keys == ["a", "a-b"])
    }

    @Test(
        "a start's blocks, taken from its cache or read, load as the walk handed them over",
        arguments: [(7, 1), (1, 2), (1000, 2)])
    func startLoader(blockSize: Int, blocksAhead: Int) throws {
        let (temp, ids) = try Self.store(90)
        let dir = try FileDescriptor.openDirectory(temp.path)
        defer { dir.close() }
        let (path, reader) = (temp.path, JSONReader())
        let whole = ItemFile.readMany(ids, in: dir, path: path, reader: reader, parallelAbove: 8)
        // Every third listed file is taken from the "cache", with bytes no file has.
        func cached(_ i: Int) -> [UInt8]? { i % 3 == 0 ? Array(#"{"cached": \#(i)}"#.utf8) : nil }
        let progress = ProgressCounter()
        let loader = StartLoader(
            into: StoreLoad(badNames: [:]), progress: progress, blockSize: blockSize,
            blocksAhead: blocksAhead
        ) { ItemFile.readMany($0, in: dir, path: path, reader: reader, parallelAbove: 8) }
        var block = loader.firstBlock()
        for i in ids.indices {
            if let bytes = cached(i) {
                let entry = Entry(bytes: ItemBytes(bytes), fingerprint: Fingerprint(bytes))
                block.append(ids[i], entry)
            } else {
                block.appendToRead(ids[i])
            }
            if block.count == blockSize { loader.hand(&block) }
        }
        let load = loader.finish(handing: &block)
        var reducer = StoreReducer(timing: .init(deletionGrace: 1, fallbackDelay: 1))
        reducer.load(load)
        let entries = reducer.published.entries
        var expected: [String: String] = [:]
        for (i, id) in ids.enumerated() {
            if let bytes = cached(i) {
                expected[id] = "item \(bytes)"
            } else if case .item(let item) = whole[i] {
                expected[id] = "item \(item.bytes.array)"
            } else if case .invalid = whole[i] {
                expected[id] = "invalid"
            }
        }
        var found: [String: String] = [:]
        entries.forEach { key, entry in
            let item = entry.item(id: key.string)
            found[key.string] = entry.error != nil ? "invalid" : "item \(item?.bytes.array ?? [])"
        }
        #expect(found == expected)
        #expect(load.count == expected.count)
        // Every file taken from the cache is counted as done; the read ones by their read.
        #expect(progress.value == ids.indices.filter { cached($0) != nil }.count)
    }

    @Test("work on every core: each index once, in its place, each worker one run of them")
    func parallelMapWorkers() {
        let count = 10_000
        let seen: [(worker: Int, i: Int)] = ItemFile.parallelMap(
            count, parallelAbove: 64, initial: (worker: -1, i: -1)
        ) { worker, i in (worker, i) }
        #expect(seen.map(\.i) == Array(0..<count))
        #expect(seen.allSatisfy { (0..<ItemFile.workers).contains($0.worker) })
        var workers: Set<Int> = []
        var last = -1
        for step in seen where step.worker != last {
            #expect(workers.insert(step.worker).inserted, "worker \(step.worker) has two runs")
            last = step.worker
        }
        #expect(workers.count == ItemFile.workers)
        // One by one, below the threshold: all worker 0's.
        let few = ItemFile.parallelMap(10, parallelAbove: 64, initial: -1) { worker, _ in worker }
        #expect(few == Array(repeating: 0, count: 10))
    }
}
