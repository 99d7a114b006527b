import Foundation
import Glibc
import JSONStore
import TestSupport
import Testing

/// A broken or hostile server at an etcd address: every command fails with an ordinary
/// error (exit 1, never a signal) that names the problem, within its deadline, and no byte
/// the server sent reaches the terminal raw.
@Suite("A hostile server at an etcd address")
struct HostileServerTests {
    static let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"

    /// Runs `jsonstore --store ADDRESS list` against a server playing `steps`; returns
    /// the result and the seconds the command took.
    func list(_ steps: [HostileServer.Step]) async throws -> (Run, seconds: Double) {
        let server = try HostileServer(steps)
        defer { server.stop() }
        return try await Self.timed("\"$JSONSTORE\" --store '\(server.address())' list -o ids")
    }

    /// What a timed run printed, and its exit status.
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `command` with bash; returns its result and the seconds it took, timed by the
    /// shell: under the full suite, a pipe's end can come late (a process started meanwhile
    /// by another test may hold it), so the time until the run returns says nothing.
    static func timed(_ command: String) async throws -> (Run, seconds: Double) {
        let marker = "@elapsed-ms "
        let result = try await blocking {
            try JSONStoreBinary.shell(
                """
                start=$(date +%s%N); \(command); status=$?; end=$(date +%s%N)
                echo "\(marker)$(( (end - start) / 1000000 ))" >&2; exit $status
                """)
        }
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        let timing = lines.last { $0.hasPrefix(marker) }
        let milliseconds = timing.flatMap { Double($0.dropFirst(marker.count)) } ?? .infinity
        let stderr = lines.filter { !$0.hasPrefix(marker) }.joined(separator: "\n")
        return (
            Run(status: result.status, stdout: result.stdout, stderr: stderr),
            milliseconds / 1000
        )
    }

    static let cases: [(name: String, response: String, says: String)] = [
        ("a negative Content-Length", head + "Content-Length: -5\r\n\r\n{}", "Content-Length"),
        (
            "a Content-Length over Int.max", head + "Content-Length: 99999999999999999999\r\n\r\n",
            "Content-Length"
        ),
        (
            "a Content-Length of Int.max", head + "Content-Length: 9223372036854775807\r\n\r\n",
            "Content-Length"
        ),
        ("a garbage Content-Length", head + "Content-Length: 12abc\r\n\r\n", "Content-Length"),
        (
            "a negative chunk size", head + "Transfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n",
            "chunk size"
        ),
        (
            "a chunk size of Int.max",
            head + "Transfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nhello\r\n", "chunk size"
        ),
        (
            "a chunk size over 64 bits",
            head + "Transfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\nhello\r\n",
            "chunk size"
        ),
        (
            "a garbage chunk size", head + "Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n",
            "chunk size"
        ),
        ("not HTTP at all", "SSH-2.0-OpenSSH_9.6\r\n", "not an HTTP response"),
    ]

    @Test(
        "a bad length or head fails with an ordinary error naming it",
        arguments: cases.indices)
    func badLengths(index: Int) async throws {
        let (name, response, says) = Self.cases[index]
        let (result, seconds) = try await list([.send(Array(response.utf8))])
        #expect(result.status == 1, "\(name): \(result.stderr)")
        #expect(result.stderr.contains(says), "\(name): \(result.stderr)")
        #expect(result.stderr.contains("127.0.0.1:"), "\(name): \(result.stderr)")
        #expect(seconds < 10, "\(name): \(seconds) s")
    }

    @Test("an endless header line fails fast, its memory capped")
    func endlessHeader() async throws {
        let (result, seconds) = try await list([
            .send(Array((Self.head + "X-Endless: ").utf8)), .flood(0x61),
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("longer than"), "\(result.stderr)")
        #expect(seconds < 10, "\(seconds) s")
    }

    @Test("endless headers fail fast")
    func endlessHeaders() async throws {
        let (result, seconds) = try await list([
            .send(Array(Self.head.utf8)),
            .send(Array(String(repeating: "X-Header: a\r\n", count: 50_000).utf8)), .hang,
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("header"), "\(result.stderr)")
        #expect(seconds < 10, "\(seconds) s")
    }

    @Test("a server sending a byte a second cannot hold list past its deadline")
    func slowServer() async throws {
        let body = #"{"header":{"revision":"1"},"count":"0"}"#
        let response = Self.head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
        let (result, seconds) = try await list([.trickle(Array(response.utf8), interval: 0.25)])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("within 5 s"), "\(result.stderr)")
        #expect(seconds < 12, "\(seconds) s")
    }

    @Test("a server that sends the same page of a range again is not read forever")
    func samePageAgain() async throws {
        // `p/a`, and "more" forever.
        let body =
            #"{"header":{"revision":"5"},"kvs":[{"key":"cC9h","value":"e30=","mod_revision":"5"}],"more":true,"count":"1"}"#
        let response = Self.head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
        let (result, seconds) = try await list([.send(Array(response.utf8))])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("does not move past"), "\(result.stderr)")
        #expect(seconds < 10, "\(seconds) s")
    }

    @Test("a server's escape sequences arrive escaped, in its status line and its body")
    func escapes() async throws {
        let title = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let body = #"{"message":"\#(title)"}"#
        for response in [
            "HTTP/1.1 \(title)\r\n\r\n",
            "HTTP/1.1 500 Oops\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)",
            "HTTP/1.1 500 Oops\r\nContent-Length: 20\r\n\r\n\(title)abcdefgh",
        ] {
            let (result, _) = try await list([.send(Array(response.utf8))])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(!result.stderr.utf8.contains(0x1B), "\(result.stderr.debugDescription)")
            #expect(!result.stdout.utf8.contains(0x1B))
            #expect(
                result.stderr.contains("^[]0;pwned^G^[[2J"), "\(result.stderr.debugDescription)")
        }
    }

    @Test("mirror prints a server's escape sequences escaped")
    func mirrorEscapes() async throws {
        let title = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let server = try HostileServer([.send(Array("HTTP/1.1 \(title)\r\n\r\n".utf8))])
        defer { server.stop() }
        let temp = try TemporaryStore()
        let (path, address) = (temp.path, server.address())
        let result = try await blocking {
            try JSONStoreBinary.shell(
                "timeout -s TERM 3 \"$JSONSTORE\" --dir '\(path)' mirror '\(address)'")
        }
        #expect(result.stderr.contains("^[]0;pwned^G^[[2J"), "\(result.stderr.debugDescription)")
        #expect(!result.stderr.utf8.contains(0x1B), "\(result.stderr.debugDescription)")
    }

    @Test("mirror stuck reading from a slow server exits at once on SIGTERM")
    func mirrorTerminates() async throws {
        // An endless header, a byte every 0.2 s: each read gets something, none ends.
        let server = try HostileServer([
            .send(Array((Self.head + "X-Slow: ").utf8)),
            .trickle(Array(repeating: 0x61, count: 100_000), interval: 0.2),
        ])
        defer { server.stop() }
        let temp = try TemporaryStore()
        let mirror = try JSONStoreBinary.start(["--dir", temp.path, "mirror", server.address()])
        defer { mirror.stop() }
        let process = mirror.process
        let seconds = try await blocking { () throws -> Double in
            let ready = Date().addingTimeInterval(20)
            while server.requests == 0 && Date() < ready { usleep(10_000) }
            usleep(1_500_000)  // well into its read
            let start = Date()
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(20)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            return Date().timeIntervalSince(start)
        }
        #expect(server.requests > 0)
        #expect(seconds < 1.5, "\(seconds) s")
        #expect(!process.isRunning)
    }

    // The suite's tests run in parallel: a listener closed twice (by a test's `stop`, then
    // by `deinit`'s) closed whatever another test had opened under its number since, and
    // that test failed with EBADF (a store's file, a pipe of a child process).
    @Test("a server stopped twice closes its listener once: a file opened since stays open")
    func stoppedTwice() throws {
        var checked = false
        for _ in 0..<20 where !checked {
            let server = try HostileServer([.close])
            let number = server.listener
            server.stop()
            // The lowest free number from the listener's up: the listener's own, unless
            // another test took it meanwhile (then try again with another server).
            let held = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, number)
            try #require(held >= 0)
            guard held == number else {
                close(held)
                continue
            }
            server.stop()
            let open = fcntl(held, F_GETFD) != -1
            #expect(open, "the second stop closed descriptor \(held)")
            // Closed only if still ours: closed by the stop, the number is no longer ours.
            if open { close(held) }
            checked = true
        }
        #expect(checked, "another test took the listener's number every time")
    }
}
