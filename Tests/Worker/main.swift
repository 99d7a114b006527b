import Foundation
import Glibc
@_spi(Testing) import JSONStore
import JSONStoreEtcd
import TestSupport

// A helper process for the integration tests. Each command does one thing a real writer
// does, so the tests can run several at once, kill them, or limit them.
//
//   increment DIR ID FIELD N      N read-modify-write increments of FIELD in item ID
//   rewrite DIR BASE              rewrite items r0…r4 forever, round BASE, BASE+1, …
//   put-limited DIR ID BYTES MAX  put a BYTES-long item with RLIMIT_FSIZE = MAX
//   put-as DIR ID UID             drop to UID, then put an item
//   put DIR ID                    put an item
//   batch-loop DIR PREFIX SIZE BASE  write batches of SIZE items PREFIX0…, all with the same
//                                 round (BASE, BASE+1, …) forever; prints `ready` first
//   mixed DIR SEED OPS FIRST STEP COUNT
//                                 OPS random operations on items m-FIRST, m-(FIRST+STEP), …
//                                 below COUNT: puts, updates, deletions, batches, invalid
//                                 writes, and an increment of the shared item `counter` every
//                                 tenth; then prints the last successful state of each of
//                                 its items (`put ID TITLE`, `gone ID`, `invalid ID`) and
//                                 `increments N`
//   observe-exhausted DIR MODE    as uid 65534, take every inotify instance the user may
//                                 have, then observe DIR (MODE inotify or fallback, which
//                                 polls when inotify is out); prints `held N`, then `error
//                                 CODE: MESSAGE` or `initial N` and, after a put, `update ID`
//   churn DIR SEED SECONDS COUNT FIRST STEP
//                                 for SECONDS, as fast as it can, random edits of items
//                                 item-FIRST, item-(FIRST+STEP), … below item-COUNT: atomic
//                                 puts, rewrites in place (truncate, write), deletions;
//                                 prints `ready` when it starts, `done N` (the number of
//                                 edits) when it stops
//
//   fault POINT N write DIR       SIGKILL itself the Nth time the write reaches POINT (a
//   fault POINT N undo DIR ID     `FaultPoint`): a batch (put a and b, delete c), an undo of
//   fault POINT N watch DIR       ID's last change, or a watcher recording what others
//   fault POINT N mirror DIR ADDRESS  change (prints `ready` once it observes), or
//                                 `jsonstore mirror` (the points `files-before`, `files`,
//                                 `etcd-before`, `etcd`); prints `survived` if the point
//                                 was never reached; `write-synced` is the batch with
//                                 `historySyncsEachWrite`
//
// A StoreError is printed to stdout as `error <code>: <description>` with exit status 3.

func run(_ arguments: [String]) throws {
    switch arguments.first {
    case "increment":
        let (dir, id, field, count) = (arguments[1], arguments[2], arguments[3], Int(arguments[4])!)
        let store = try JSONStore(directory: dir)
        for _ in 0..<count {
            try store.update(id, orCreate: [:]) { object in
                let current = object[field]?.intValue ?? 0
                object[field] = .number(JSONNumber(current + 1))
            }
        }
    case "rewrite":
        let (dir, base) = (arguments[1], Int(arguments[2])!)
        let store = try JSONStore(directory: dir)
        // Warmed up before "ready": the first write's sweep of stale temp files and the
        // history's first look at the journal (whose length grows run by run) are not in
        // the window the test kills in, which is then all writes.
        try store.write { _ in }
        _ = try store.history(of: "r0", limit: 1)
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        var round = base
        while true {
            for k in 0..<5 {
                try store.put("r\(k)", rewriteContent(id: "r\(k)", round: round))
            }
            round += 1
        }
    case "put-limited":
        let (dir, id, size, limit) = (
            arguments[1], arguments[2], Int(arguments[3])!, Int(arguments[4])!
        )
        signal(SIGXFSZ, SIG_IGN)  // so write(2) fails with EFBIG instead of killing us
        var rl = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
        guard setrlimit(fileSizeLimitResource, &rl) == 0 else { fatalError("setrlimit failed") }
        let store = try JSONStore(directory: dir)
        try store.put(id, ["payload": .string(String(repeating: "x", count: size))])
    case "put-as":
        let (dir, id, uid) = (arguments[1], arguments[2], uid_t(arguments[3])!)
        guard setgid(gid_t(uid)) == 0, setuid(uid) == 0 else { fatalError("setuid failed") }
        let store = try JSONStore(directory: dir)
        try store.put(id, ["by": "someone else"])
    case "put":
        let store = try JSONStore(directory: arguments[1])
        try store.put(arguments[2], ["new": true])
    case "batch-loop":
        let (dir, prefix, size, base) = (
            arguments[1], arguments[2], Int(arguments[3])!, Int(arguments[4])!
        )
        let store = try JSONStore(directory: dir)
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        for round in base... {
            try store.write { tx in
                for k in 0..<size {
                    try tx.put(
                        "\(prefix)\(k)",
                        [
                            "round": .number(JSONNumber(round)),
                            "pad": .string(String(repeating: "x", count: 2000)),
                        ])
                }
            }
        }
    case "mixed":
        let (dir, seed, ops) = (arguments[1], UInt64(arguments[2])!, Int(arguments[3])!)
        let ids = Array(
            stride(from: Int(arguments[4])!, to: Int(arguments[6])!, by: Int(arguments[5])!)
        ).map { "m-\($0)" }
        try mixed(dir, seed: seed, operations: ops, ids: ids)
    case "observe-exhausted":
        try observeExhausted(arguments[1], fallback: arguments[2] == "fallback")
    case "fault":
        try fault(
            at: FaultPoint(rawValue: arguments[1])!, time: Int(arguments[2])!,
            Array(arguments.dropFirst(3)))
    case "churn":
        let (dir, seed) = (arguments[1], UInt64(arguments[2])!)
        let (seconds, count) = (Double(arguments[3])!, Int(arguments[4])!)
        let ids = Array(stride(from: Int(arguments[5])!, to: count, by: Int(arguments[6])!))
        try churn(dir, seed: seed, seconds: seconds, ids: ids.map { "item-\($0)" })
    default:
        FileHandle.standardError.write(Data("unknown command \(arguments)\n".utf8))
        exit(64)
    }
}

/// Random operations of every kind on `ids`, remembering what each id was last made.
func mixed(_ dir: String, seed: UInt64, operations: Int, ids: [String]) throws {
    enum Last {
        case put(String)
        case gone, invalid
    }
    let store = try JSONStore(directory: dir)
    var random = SeededRandom(seed: seed)
    var last: [String: Last] = [:]
    var increments = 0
    for op in 0..<operations {
        let id = ids.randomElement(using: &random)!
        let title = "\(id) op \(op)"
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
            try store.put(id, ["title": .string(title), "op": .number(JSONNumber(op))])
            last[id] = .put(title)
        case 4, 5:
            if case .put = last[id] ?? .gone {
                try store.update(id) { $0["title"] = .string(title) }
                last[id] = .put(title)
            }
        case 6:
            try store.delete(id)
            last[id] = .gone
        case 7:
            let other = ids.randomElement(using: &random)!
            try store.write { tx in
                try tx.put(id, ["title": .string(title), "op": .number(JSONNumber(op))])
                if other != id { try tx.delete(other) }
            }
            last[id] = .put(title)
            if other != id { last[other] = .gone }
        case 8:
            // A person's bad edit: invalid JSON, written whole (atomically, as editors do).
            let temp = dir + "/.edit-\(id).tmp"
            let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = "{\"title\": tru".utf8CString.withUnsafeBufferPointer {
                write(fd, $0.baseAddress, $0.count - 1)
            }
            close(fd)
            rename(temp, dir + "/" + id + ".json")
            last[id] = .invalid
        default:
            try store.update("counter", orCreate: [:]) { object in
                object["n"] = .number(JSONNumber((object["n"]?.intValue ?? 0) + 1))
            }
            increments += 1
        }
    }
    var report = ""
    for (id, state) in last.sorted(by: { $0.key < $1.key }) {
        switch state {
        case .put(let title): report += "put \(id) \(title)\n"
        case .gone: report += "gone \(id)\n"
        case .invalid: report += "invalid \(id)\n"
        }
    }
    FileHandle.standardOutput.write(Data((report + "increments \(increments)\n").utf8))
}

/// Observes `dir` with every inotify instance of the user taken.
func observeExhausted(_ dir: String, fallback: Bool) throws {
    guard setgid(65534) == 0, setuid(65534) == 0 else { fatalError("setuid failed") }
    var held = 0
    while inotify_init1(Int32(IN_CLOEXEC)) >= 0 { held += 1 }
    let say: @Sendable (String) -> Void = { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
    say("held \(held)")
    var options = JSONStore.Options()
    options.watchMode = fallback ? .inotifyOrPolling(interval: 0.05) : .inotify
    let store = try JSONStore(directory: dir, options: options)
    let done = DispatchSemaphore(value: 0)
    let token = store.observe(on: DispatchQueue(label: "worker")) { change in
        switch change {
        case .initial(let results):
            say("initial \(results.count)")
            if !fallback {
                done.signal()
                return
            }
            DispatchQueue.global().async { try? store.put("z", ["n": 1]) }
        case .update(_, let changes):
            for item in changes.inserted { say("update \(item.id)") }
            done.signal()
        case .error(let error):
            say("error \(error.code): \(error.message)")
            done.signal()
        }
    }
    _ = done.wait(timeout: .now() + 20)
    token.invalidate()
}

/// Random edits of a store's items until `seconds` have passed.
func churn(_ dir: String, seed: UInt64, seconds: Double, ids: [String]) throws {
    let store = try JSONStore(directory: dir)
    var random = SeededRandom(seed: seed)
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    let deadline = DispatchTime.now() + seconds
    var operations = 0
    while DispatchTime.now() < deadline {
        let id = ids.randomElement(using: &random)!
        let object: JSONObject = [
            "title": .string("\(id) \(operations)"), "n": .number(JSONNumber(operations)),
        ]
        switch Int.random(in: 0..<3, using: &random) {
        case 0:
            try store.put(id, object)
        case 1:
            let fd = open(dir + "/" + id + ".json", O_WRONLY | O_TRUNC | O_CREAT, 0o644)
            guard fd >= 0 else { continue }
            let bytes = JSONWriter.pretty(.object(object))
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        default:
            unlink(dir + "/" + id + ".json")
        }
        operations += 1
    }
    FileHandle.standardOutput.write(Data("done \(operations)\n".utf8))
}

/// `fault`: dies by SIGKILL the `time`th time `point` is reached while doing `work`.
func fault(at point: FaultPoint, time: Int, _ work: [String]) throws {
    let count = Locked(0)
    FaultPoint.setHook { reached in
        guard reached == point else { return }
        if count.withLock({
            $0 += 1
            return $0
        }) == time {
            kill(getpid(), SIGKILL)
        }
    }
    if work[0] == "mirror" { return try mirror(work[1], work[2]) }
    var options = JSONStore.Options()
    options.historySyncsEachWrite = work[0] == "write-synced"
    let store = try JSONStore(directory: work[1], options: options)
    switch work[0] {
    case "write", "write-synced":
        try store.write { tx in
            try tx.put("a", ["title": "A, written by the batch"])
            try tx.put("b", ["title": "B, written by the batch"])
            _ = try tx.delete("c")
        }
    case "undo":
        try store.undo(work[2])
    default:
        let token = store.observe(on: DispatchQueue(label: "watch")) { change in
            if case .initial = change { FileHandle.standardOutput.write(Data("ready\n".utf8)) }
        }
        sleep(30)
        token.invalidate()
    }
    FileHandle.standardOutput.write(Data("survived\n".utf8))
}

/// `fault … mirror`: `jsonstore mirror` of `dir` with `address`, as the command runs it,
/// until killed (the hook set) or its parent goes.
func mirror(_ dir: String, _ address: String) throws {
    var options = JSONStore.Options()
    options.createDirectory = true
    options.historySource = .mirror
    let store = try JSONStore(directory: dir, options: options)
    let mirror = try DirectoryMirror(
        store: store, address: try EtcdAddress(parsing: address), credentials: nil, tls: nil,
        host: ProcessInfo.processInfo.hostName,
        say: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    mirror.start()
    while true { sleep(60) }
}

/// `RLIMIT_FSIZE` as the type `setrlimit` takes on Glibc.
let fileSizeLimitResource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)

/// Ends the worker once its parent is gone: a test process killed mid-run (a suite
/// stopped, a crash) must not leave `rewrite` or `batch-loop` writing forever.
func exitWhenOrphaned() {
    let parent = getppid()
    let thread = Thread {
        while getppid() == parent { usleep(100_000) }
        _exit(70)
    }
    thread.start()
}

exitWhenOrphaned()
do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch let error as StoreError {
    FileHandle.standardOutput.write(Data("error \(error.code): \(error)\n".utf8))
    exit(3)
}
