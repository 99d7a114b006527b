import Foundation
import JSONStore
import TestSupport
import Testing

/// What the command says of an etcd address it cannot use: a malformed one is a usage error
/// (exit 64) that never repeats a password or a raw control byte; a refused connection is
/// called so; an unknown host ends `mirror` rather than being retried forever.
@Suite("etcd addresses the command cannot use")
struct EtcdAddressCommandTests {
    @Test("nothing listening: 'connection refused: is etcd running at HOST:PORT?'")
    func refused() async throws {
        let port = try EtcdServer.freePort()
        let result = try await blocking {
            try JSONStoreBinary.run(["--store", "etcd://127.0.0.1:\(port)/p", "list"])
        }
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("connection refused: is etcd running at 127.0.0.1:\(port)?"),
            "\(result.stderr)")
    }

    @Test("an address with USER:PASSWORD@ is refused, the password never printed")
    func credentialsInAddress() async throws {
        for arguments in [
            ["--store", "etcd://root:hunter2@127.0.0.1:2379/p", "list"],
            ["--store", "etcd://127.0.0.1:2379,root:hunter2@127.0.0.1:2380/p", "doctor"],
            ["--dir", "/tmp/x", "mirror", "etcd://root:hunter2@127.0.0.1:2379/p"],
        ] {
            let result = try await blocking { try JSONStoreBinary.run(arguments) }
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("hunter2"), "\(result.stderr)")
            #expect(!result.stdout.contains("hunter2"))
            #expect(result.stderr.contains("--user"), "\(result.stderr)")
        }
    }

    @Test("a malformed address is a usage error; its raw bytes arrive escaped")
    func malformed() async throws {
        for arguments in [
            ["--store", "etcd://127.0.0.1:abc/p", "list"],
            ["--store", "etcd://127.0.0.1:2379", "list"],
            ["--store", "etcd://\u{1B}]0;pwned\u{07}\u{1B}[2J:2379/p", "doctor"],
            ["--dir", "/tmp/x", "mirror", "etcd://\u{1B}[2Jhost:2379/p"],
        ] {
            let result = try await blocking { try JSONStoreBinary.run(arguments) }
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.utf8.contains(0x1B), "\(result.stderr.debugDescription)")
            #expect(!result.stdout.utf8.contains(0x1B), "\(result.stdout.debugDescription)")
        }
    }

    @Test("mirror to a host that does not exist ends with the error, not retrying forever")
    func unknownHost() async throws {
        let temp = try TemporaryStore()
        let path = temp.path
        let (result, seconds) = try await HostileServerTests.timed(
            "timeout -s KILL 20 \"$JSONSTORE\" --dir '\(path)' mirror etcd://no-such-host.invalid:2379/p"
        )
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cannot resolve the host"), "\(result.stderr)")
        #expect(seconds < 15)
    }
}
