import Foundation
import Glibc
import JSONStore
import TestSupport

// scripts/soak: mixed writes and the edit patterns of real tools while `jsonstore list
// --follow --json` and a library observer follow; every so often everything pauses and
// both must equal the directory. Reports events, checks, and the follower's and this
// process's RSS and open descriptors at the start and the end.

func openDescriptors(of pid: pid_t) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
}

func shell(_ command: String, in directory: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try? process.run()
    process.waitUntilExit()
}

func soak(directory: String, minutes: Double) throws {
    let count = 300
    try fill(directory, count: count)
    shell(
        "git init -q -b base && git add -A && git -c user.email=s@s -c user.name=soak commit -qm base && "
            + "git checkout -qb other && for i in $(seq 0 99); do f=$(printf item-%06d.json $i); "
            + "sed -i 's/lorem/LOREM/' $f; done && git -c user.email=s@s -c user.name=soak commit -qam other && "
            + "git checkout -q base", in: directory)
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("jsonstore").path
    let follower = Process()
    follower.executableURL = URL(fileURLWithPath: binary)
    follower.arguments = ["--dir", directory, "list", "--follow", "--json"]
    let pipe = Pipe()
    follower.standardOutput = pipe
    try follower.run()
    defer { follower.terminate() }
    let stream = NDJSONMirror()
    Thread.detachNewThread { for line in HelperProcess.lines(of: pipe) { stream.apply(line) } }
    let store = try JSONStore(directory: directory)
    let latest = Locked(Results<Item>())
    let token = store.observe(on: DispatchQueue(label: "soak")) { change in
        switch change {
        case .initial(let results), .update(let results, _): latest.withLock { $0 = results }
        case .error: break
        }
    }
    Thread.sleep(forTimeInterval: 2)
    let pid = follower.processIdentifier
    let start = (
        rss: residentBytes(of: pid), fds: openDescriptors(of: pid),
        ownRSS: residentBytes(of: getpid()), ownFDs: openDescriptors(of: getpid())
    )
    var random = SystemRandomNumberGenerator()
    var events: [String: Int] = [:]
    var checks = (passed: 0, failed: 0)
    let end = now() + minutes * 60
    var nextCheck = now() + 30
    var branch = "other"
    func path(_ n: Int) -> String { directory + "/" + String(format: "item-%06d.json", n) }
    while now() < end {
        let n = Int.random(in: 0..<count, using: &random)
        let kind = ["put", "vim", "sed", "git", "cp", "mv", "rm", "invalid", "fix"].randomElement(
            using: &random)!
        events[kind, default: 0] += 1
        switch kind {
        case "put":
            try store.put(
                String(format: "item-%06d", n), item(Int.random(in: 0..<1000, using: &random)))
        case "vim":  // rename to a backup, write anew, remove the backup
            rename(path(n), path(n) + "~")
            let bytes = JSONWriter.pretty(.object(item(n + 7)))
            let fd = open(path(n), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
            unlink(path(n) + "~")
        case "sed": shell("sed -i 's/moderate/MODERATE/' \(path(n))", in: directory)
        case "git":
            shell("git checkout -qf \(branch) 2>/dev/null", in: directory)
            branch = branch == "other" ? "base" : "other"
        case "cp": shell("cp \(path(n)) \(path(count + n % 50))", in: directory)
        case "mv": rename(path(count + n % 50), path(count + 50 + n % 50))
        case "rm": unlink(path(count + 50 + n % 50))
        case "invalid":
            try replaceWhole(path(n), with: "{\"title\": tru")
        default: try store.put(String(format: "item-%06d", n), item(n))
        }
        usleep(UInt32.random(in: 0...5_000, using: &random))
        if now() >= nextCheck {
            nextCheck = now() + 30
            // Quiet, then both followers must equal the directory (valid items; an
            // invalid file keeps its last value in both).
            let semaphore = DispatchSemaphore(value: 0)
            Task.detached {
                await store.synchronize()
                semaphore.signal()
            }
            semaphore.wait()
            let disk = try store.load()
            let results = latest.withLock { $0 }
            let valid = results.filter { results.error(for: $0.id) == nil }
            var ok =
                valid.map(\.id) == disk.items.map(\.id)
                && zip(valid, disk.items).allSatisfy { $0.object == $1.object }
                && Set(results.invalid.map(\.name)) == Set(disk.invalid.map(\.name))
            // The stream, rebuilt, must match on every valid file (an invalid one keeps the
            // last valid value its own pipeline read, which may differ between two).
            let invalid = Set(disk.invalid.compactMap(\.id))
            let validOnly = { (items: [JSONValue]) in
                items.filter { !invalid.contains($0["id"]?.stringValue ?? "") }
            }
            let expected = validOnly(valid.map { JSONValue.object($0.object) })
            let deadline = now() + 10
            while now() < deadline, validOnly(stream.items) != expected { usleep(20_000) }
            ok = ok && validOnly(stream.items) == expected
            if ok { checks.passed += 1 } else { checks.failed += 1 }
            print(
                "check at \(Int(now() - end + minutes * 60)) s: \(ok ? "passed" : "FAILED"), \(disk.items.count) items, \(disk.invalid.count) invalid"
            )
        }
    }
    token.invalidate()
    let mb = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
    print(
        "soak: \(Int(minutes)) min, \(events.values.reduce(0, +)) events \(events.sorted { $0.key < $1.key })"
    )
    print(
        "convergence checks: \(checks.passed) passed, \(checks.failed) failed; stream lines not JSON: \(stream.problems.count)"
    )
    print(
        "list --follow --json: RSS \(mb(start.rss)) -> \(mb(residentBytes(of: pid))), descriptors \(start.fds) -> \(openDescriptors(of: pid))"
    )
    print(
        "library observer process: RSS \(mb(start.ownRSS)) -> \(mb(residentBytes(of: getpid()))), descriptors \(start.ownFDs) -> \(openDescriptors(of: getpid()))"
    )
    if checks.failed > 0 { exit(1) }
}
