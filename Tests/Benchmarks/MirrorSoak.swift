import Foundation
import Glibc
import JSONStore
import JSONStoreEtcd
import TestSupport

/// `scripts/soak --mirror`: two directories mirrored through one etcd, each edited every
/// way (library puts, vim-style saves, `sed -i`, `cp`, `mv`, `rm`, invalid files and their
/// fixes, and `git checkout` on one side) for MINUTES. Every 30 s the edits pause and both
/// directories must hold the same items, byte for byte, equal to etcd's values, with no
/// conflict (each side edits its own items, so none is made). Reports events, checks, and
/// both mirrors' RSS and open descriptors at the start and the end.
enum MirrorSoak {
    static func run(directory: String, minutes: Double) throws {
        let count = 200
        let server = try EtcdBench.startServer()
        let address = "etcd://\(server.endpoint)/\(EtcdBench.prefix)"
        let (a, b) = (directory + "/a", directory + "/b")
        try fill(a, count: count)
        // A branch that changes side a's own (even) items only.
        shell(
            "git init -q -b base && git add -A && git -c user.email=s@s -c user.name=soak commit -qm base && "
                + "git checkout -qb other && for i in $(seq 0 2 98); do f=$(printf item-%06d.json $i); "
                + "sed -i 's/lorem/LOREM/' $f; done && git -c user.email=s@s -c user.name=soak commit -qam other && "
                + "git checkout -q base", in: a)
        let (_, mirrorA) = try MirrorBenchmark.timedMirror(a, address)
        let (_, mirrorB) = try MirrorBenchmark.timedMirror(b, address)
        defer { for mirror in [mirrorA, mirrorB] { mirror.terminate() } }
        let stores = [a: try JSONStore(directory: a), b: try JSONStore(directory: b)]
        let pids = [mirrorA.processIdentifier, mirrorB.processIdentifier]
        let start = pids.map { (residentBytes(of: $0), openDescriptors(of: $0)) }
        var random = SystemRandomNumberGenerator()
        var events: [String: Int] = [:]
        var checks = (passed: 0, failed: 0)
        var invalid: [String: Set<Int>] = [a: [], b: []]
        var branch = "other"
        let end = now() + minutes * 60
        var nextCheck = now() + 30
        while now() < end {
            let side = Bool.random(using: &random) ? a : b
            let tag = side == a ? "a" : "b"
            // Side a edits the even items, side b the odd ones.
            let n = Int.random(in: 0..<count / 2, using: &random) * 2 + (side == a ? 0 : 1)
            let path = { (i: Int) in side + "/" + EtcdBench.id(i) + ".json" }
            let extra = { (i: Int) in side + "/\(tag)-copy-\(i % 20).json" }
            var kinds = ["put", "vim", "sed", "cp", "mv", "rm", "invalid", "fix"]
            if side == a { kinds.append("git") }
            let kind = kinds.randomElement(using: &random)!
            events["\(tag) \(kind)", default: 0] += 1
            switch kind {
            case "put":
                try stores[side]!.put(
                    EtcdBench.id(n), item(Int.random(in: 0..<1000, using: &random)))
                invalid[side]!.remove(n)
            case "vim":
                rename(path(n), path(n) + "~")
                try Data(JSONWriter.pretty(.object(item(n + 7)))).write(
                    to: URL(fileURLWithPath: path(n)))
                unlink(path(n) + "~")
                invalid[side]!.remove(n)
            case "sed": shell("sed -i 's/moderate/MODERATE/' \(path(n))", in: side)
            case "git":
                // Only side a's items (a whole checkout would also undo b's edits in a).
                shell("git checkout -q \(branch) -- item-0000[0-9][02468].json", in: a)
                branch = branch == "other" ? "base" : "other"
                invalid[a]!.subtract(0..<100)
            case "cp": shell("cp \(path(n)) \(extra(n))", in: side)
            case "mv": rename(extra(n), extra(n + 1))
            case "rm": unlink(extra(n))
            case "invalid":
                try replaceWhole(path(n), with: "{\"title\": tru")
                invalid[side]!.insert(n)
            default:
                try stores[side]!.put(EtcdBench.id(n), item(n))
                invalid[side]!.remove(n)
            }
            usleep(UInt32.random(in: 0...5_000, using: &random))
            guard now() >= nextCheck else { continue }
            // Quiet, every invalid file fixed: both sides equal, byte for byte, and etcd.
            for (side, ids) in invalid {
                for n in ids { try stores[side]!.put(EtcdBench.id(n), item(n)) }
            }
            invalid = [a: [], b: []]
            // A copy made of a file while it was invalid is invalid too: made valid.
            for side in [a, b] {
                for (name, bytes) in MirrorPair.itemFiles(in: side) where name.contains("-copy-") {
                    if (try? JSONReader().read(Array(bytes))) == nil {
                        try Data(JSONWriter.pretty(.object(item(0)))).write(
                            to: URL(fileURLWithPath: side + "/" + name))
                    }
                }
            }
            let deadline = now() + 30
            var ok = false
            while now() < deadline {
                let items = MirrorPair.itemFiles(in: a)
                if items == MirrorPair.itemFiles(in: b), items == (try? etcdValues(server)) {
                    ok = true
                    break
                }
                usleep(50_000)
            }
            let conflicts = try stores[a]!.conflicts().count + stores[b]!.conflicts().count
            ok = ok && conflicts == 0
            if !ok {
                report(
                    MirrorPair.itemFiles(in: a), MirrorPair.itemFiles(in: b),
                    (try? etcdValues(server)) ?? [:])
            }
            if ok { checks.passed += 1 } else { checks.failed += 1 }
            print(
                "check at \(Int(now() - end + minutes * 60)) s: \(ok ? "passed" : "FAILED"), \(MirrorPair.itemFiles(in: a).count) items, \(conflicts) conflicts"
            )
            nextCheck = now() + 30
        }
        let mb = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        print(
            "soak --mirror: \(Int(minutes)) min, \(events.values.reduce(0, +)) events \(events.sorted { $0.key < $1.key })"
        )
        print("convergence checks: \(checks.passed) passed, \(checks.failed) failed")
        for (name, (pid, first)) in zip(["a", "b"], zip(pids, start)) {
            print(
                "mirror of \(name): RSS \(mb(first.0)) -> \(mb(residentBytes(of: pid))), descriptors \(first.1) -> \(openDescriptors(of: pid))"
            )
        }
        server.stop()
        if checks.failed > 0 { exit(1) }
    }

    /// Where the sides differ: names on one side only, and names whose bytes differ.
    static func report(_ a: [String: Data], _ b: [String: Data], _ etcd: [String: Data]) {
        let names = Set(a.keys).union(b.keys).union(etcd.keys)
        var lines: [String] = []
        for name in names.sorted() where !(a[name] == b[name] && b[name] == etcd[name]) {
            let show = { (d: Data?) in
                d.map {
                    String(decoding: $0.prefix(60), as: UTF8.self).replacingOccurrences(
                        of: "\n", with: " ")
                } ?? "(none)"
            }
            lines.append(
                "  \(name): a \(show(a[name])) | b \(show(b[name])) | etcd \(show(etcd[name]))")
        }
        print("  \(lines.count) differ:\n" + lines.prefix(6).joined(separator: "\n"))
    }

    /// etcd's values under the prefix, by the file name they mirror to.
    static func etcdValues(_ server: EtcdServer) throws -> [String: Data] {
        let client = EtcdClient(endpoints: [EtcdBench.endpoint(server)])
        let prefix = Array("\(EtcdBench.prefix)/".utf8)
        var values: [String: Data] = [:]
        for keyValue in try client.range(prefix: prefix).keyValues {
            let id = String(decoding: keyValue.key.dropFirst(prefix.count), as: UTF8.self)
            values[id + ".json"] = Data(keyValue.value)
        }
        return values
    }
}
