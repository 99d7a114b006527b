import Foundation
import JSONStore
import TestSupport
import Testing

/// Compare-and-swap from the command line: `get --etag`, then `set --if-match`, retried
/// when refused, by several processes at once, on a directory and on etcd.
@Suite("Compare-and-swap with etags", .serialized)
struct CompareAndSwapTests {
    /// Four shells, each incrementing `counter` 25 times by `get --etag`, `get --json` and
    /// `set --if-match`, again whenever the set is refused; `STORE` names the store.
    static let contention = #"""
        increment() {
            err=$(mktemp)
            for i in $(seq 25); do
                tries=0
                while :; do
                    tries=$((tries + 1)); [ $tries -lt 500 ] || { echo "gave up" >&2; exit 1; }
                    etag=$("$JSONSTORE" $STORE get counter --etag) || exit 1
                    n=$("$JSONSTORE" $STORE get counter --json | sed -n 's/.*"n": \([0-9]*\).*/\1/p')
                    if "$JSONSTORE" $STORE set counter "n:=$((n + 1))" --if-match "$etag" 2>"$err"; then
                        break
                    fi
                    grep -q "nothing was written" "$err" || { cat "$err" >&2; exit 1; }
                done
            done
            rm -f "$err"
        }
        for w in 1 2 3 4; do increment & done
        fails=0
        for job in $(jobs -p); do wait "$job" || fails=$((fails + 1)); done
        exit $fails
        """#

    static func increments(_ store: String) async throws -> (JSONStoreBinary.Result, String) {
        try await blocking {
            _ = try JSONStoreBinary.run(
                store.split(separator: " ").map(String.init) + ["put", "counter", "-"],
                stdin: #"{"n": 0}"#)
            let result = try JSONStoreBinary.shell(contention, environment: ["STORE": store])
            let final = try JSONStoreBinary.run(
                store.split(separator: " ").map(String.init) + ["get", "counter"])
            return (result, final.stdout)
        }
    }

    @Test("4 processes × 25 increments end at exactly 100, in a directory")
    func directory() async throws {
        let temp = try TemporaryStore()
        let (result, final) = try await Self.increments("--dir \(temp.path)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(final == "id: counter\nn: 100\n")
    }

    @Test(
        "4 processes × 25 increments end at exactly 100, on etcd",
        .enabled(
            if: EtcdServer.isInstalled,
            "etcd is not installed: apt-get install etcd-server etcd-client"))
    func etcd() async throws {
        let server = try await blocking { try EtcdServer() }
        let (result, final) = try await Self.increments("--store etcd://\(server.endpoint)/tasks")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(final == "id: counter\nn: 100\n")
    }

    @Test("a stale etag, an item that exists, a deleted item: refused, nothing written")
    func refusals() async throws {
        let temp = try sampleStore()
        let etag = try await jsonstore(temp, ["get", "tea", "--etag"]).stdout.trimmingCharacters(
            in: .newlines)
        #expect(etag == (try temp.store.item("tea")?.etag))
        var result = try await jsonstore(temp, ["set", "tea", "status=done", "--if-match", etag])
        #expect(result.status == 0)
        let before = temp.readFile("tea.json")
        result = try await jsonstore(temp, ["set", "tea", "status=todo", "--if-match", etag])
        let now = try #require(try temp.store.item("tea")?.etag)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "jsonstore: \(temp.path)/tea.json: changed since etag \(etag): its etag is now \(now); nothing was written\n"
        )
        #expect(temp.readFile("tea.json") == before)
        result = try await jsonstore(temp, ["put", "tea", "-", "--if-absent"], stdin: "{}")
        #expect(result.status == 1 && result.stderr.contains("exists already (its etag is \(now))"))
        result = try await jsonstore(
            temp, ["put", "tea", "-", "--if-match", now], stdin: #"{"a": 1}"#)
        #expect(result.status == 0)
        result = try await jsonstore(temp, ["delete", "bike", "--if-match", now])
        #expect(result.status == 1 && result.stderr.contains("changed since etag \(now)"))
        #expect(temp.readFile("bike.json") != nil)
        result = try await jsonstore(temp, ["put", "gone", "-", "--if-match", now], stdin: "{}")
        #expect(result.status == 1 && result.stderr.contains("was deleted since etag \(now)"))
        result = try await jsonstore(temp, ["get", "tea", "--etag", "--json"])
        #expect(result.status == 64)
        // A broken file has an etag too, and can be replaced with it.
        try temp.writeFile("broken.json", "{oops")
        let broken = try await jsonstore(temp, ["get", "broken", "--etag"]).stdout
            .trimmingCharacters(in: .newlines)
        #expect(!broken.isEmpty)
        result = try await jsonstore(
            temp, ["put", "broken", "-", "--if-match", broken], stdin: "{}")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(temp.readFile("broken.json") == "{}\n")
    }
}
