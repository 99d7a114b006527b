import Dispatch
import Foundation
import JSONStore
import TestSupport
import Testing

@testable import JSONStoreEtcd

extension EtcdTests {
    /// An etcd with authentication enabled: a wrong password is a clear error; the right
    /// one reads, writes and follows, the token renewed by itself.
    @Suite("etcd with authentication")
    struct Auth {
        /// A fresh etcd whose user `root` has the password `secret`, and whose user `app`
        /// (password `app-secret`) may read and write `tasks/`, with auth on; with
        /// `arguments`, etcd's options beside the usual.
        static func server(arguments: [String] = []) throws -> EtcdServer {
            let server = try EtcdServer(arguments: EtcdServer.environmentArguments + arguments)
            for step in [
                ["user", "add", "root:secret"], ["user", "add", "app:app-secret"],
                ["role", "add", "tasks"],
                ["role", "grant-permission", "tasks", "--prefix=true", "readwrite", "tasks/"],
                ["user", "grant-role", "app", "tasks"], ["auth", "enable"],
            ] {
                let result = try server.etcdctl(step)
                #expect(result.status == 0, "\(step): \(result.output)")
            }
            return server
        }

        @Test("a wrong password, no user: clear errors; the right one works, live")
        func library() async throws {
            let server = try await blocking { try Self.server() }
            let wrong = #expect(throws: StoreError.self) {
                try JSONStore(
                    etcd: [server.endpoint], prefix: "tasks", user: "root", password: "nope")
            }
            #expect(
                wrong?.message.contains("authentication failed") == true,
                "\(String(describing: wrong))")
            #expect(wrong?.message.contains(server.endpoint) == true)
            let anonymous = #expect(throws: StoreError.self) {
                try JSONStore(etcd: [server.endpoint], prefix: "tasks")
            }
            #expect(
                anonymous?.message.contains("user name is empty") == true,
                "\(String(describing: anonymous))")
            let store = try JSONStore(
                etcd: [server.endpoint], prefix: "tasks", user: "root", password: "secret")
            try store.put("tea", ["title": "Make tea"])
            let recorder = ChangeRecorder()
            let token = store.observe(on: DispatchQueue(label: "observer"), recorder.callback)
            defer { token.invalidate() }
            #expect(await recorder.wait { $0.ids == ["tea"] })
            try await server.etcdctl(["--user", "root:secret", "put", "tasks/bread", "{}"])
            #expect(await recorder.wait { $0.ids == ["bread", "tea"] })
            #expect(try store.load().items.count == 2)
            // A user that is not root, allowed only tasks/, writes there, also after etcd's
            // users and roles changed (which would make a token etcd checks old).
            let app = try JSONStore(
                etcd: [server.endpoint], prefix: "tasks", user: "app", password: "app-secret")
            try app.put("kettle", ["title": "Descale"])
            try await server.etcdctl(["--user", "root:secret", "role", "add", "readers"])
            try app.put("jam", ["title": "Make jam"])
            #expect(await recorder.wait { $0.ids == ["bread", "jam", "kettle", "tea"] })
        }

        @Test("a token that expired while the client was idle: taken again, the call goes through")
        func expiredToken() async throws {
            // etcd forgets a simple token a second after its last use (checked each second).
            let server = try await blocking { try Self.server(arguments: ["--auth-token-ttl=1"]) }
            let client = EtcdClient(
                endpoints: [.init(host: "127.0.0.1", port: server.clientPort)],
                credentials: .init(user: "root", password: "secret"), transport: .grpc)
            _ = try client.put(Array("tasks/tea".utf8), Array("{}".utf8))
            let first = try #require(try client.authToken())
            // Wait for etcd to forget it: a call of the test's own with that token, made at
            // most every 2.5 s (more often would keep it alive), until it is refused.
            let probe = try await blocking { try EtcdTests.GRPC.connect(server, window: 1 << 16) }
            defer { probe.close() }
            let range = EtcdRPC.RangeRequest(key: Array("tasks/tea".utf8), rangeEnd: [])
            let refused = try await blocking { () throws -> EtcdError? in
                for _ in 0..<12 {
                    Thread.sleep(forTimeInterval: 2.5)
                    do {
                        _ = try probe.call(
                            "/etcdserverpb.KV/Range", range.encoded,
                            metadata: [.init("token", first)], until: Deadline(seconds: 10))
                    } catch let error as EtcdError {
                        return error
                    }
                }
                return nil
            }
            #expect(refused?.code == .staleToken, "\(String(describing: refused))")
            // The client's next call is refused the same way, takes a new token, and goes
            // through.
            _ = try client.put(Array("tasks/bread".utf8), Array("{}".utf8))
            #expect(try client.authToken() != first)
            let listed = try await blocking {
                try server.etcdctl(["--user", "root:secret", "get", "tasks/bread"])
            }
            #expect(listed.output.contains("tasks/bread"), "\(listed.output)")
        }

        @Test("the command: --user with $JSONSTORE_ETCD_PASSWORD; none and no terminal: asked for")
        func command() async throws {
            let server = try await blocking { try Self.server() }
            let address = "etcd://\(server.endpoint)/tasks"
            try await server.etcdctl(["--user", "root:secret", "put", "tasks/tea", "{}"])
            let listed = try await blocking {
                try JSONStoreBinary.run(
                    ["--store", address, "--user", "root", "list", "-o", "ids"],
                    environment: ["JSONSTORE_ETCD_PASSWORD": "secret"])
            }
            #expect(listed.status == 0 && listed.stdout == "tea\n", "\(listed.stderr)")
            let wrong = try await blocking {
                try JSONStoreBinary.run(
                    ["--store", address, "list", "--user", "root"],
                    environment: ["JSONSTORE_ETCD_PASSWORD": "nope"])
            }
            #expect(
                wrong.status == 1 && wrong.stderr.contains("authentication failed"),
                "\(wrong.stderr)")
            let unasked = try await blocking {
                try JSONStoreBinary.run(["--store", address, "--user", "root", "list"])
            }
            #expect(
                unasked.status == 1 && unasked.stderr.contains("needs a password"),
                "\(unasked.stderr)")
        }

        @Test("a wrong password: doctor says so with the fix; mirror ends with it")
        func wrongPassword() async throws {
            let server = try await blocking { try Self.server() }
            let address = "etcd://\(server.endpoint)/tasks"
            let doctor = try await blocking {
                try JSONStoreBinary.run(
                    ["--store", address, "--user", "root", "doctor"],
                    environment: ["JSONSTORE_ETCD_PASSWORD": "nope"])
            }
            #expect(doctor.status == 1)
            #expect(
                doctor.stdout.contains("endpoint  \(server.endpoint): authentication failed"),
                "\(doctor.stdout)")
            #expect(!doctor.stdout.contains("unreachable"), "\(doctor.stdout)")
            #expect(
                doctor.stdout.contains(
                    "fix: check the user (--user NAME) and its password ($JSONSTORE_ETCD_PASSWORD)"),
                "\(doctor.stdout)")
            let temp = try TemporaryStore()
            let path = temp.path
            let mirror = try await blocking {
                try JSONStoreBinary.shell(
                    "timeout -s KILL 20 \"$JSONSTORE\" --dir '\(path)' --user root mirror '\(address)'",
                    environment: ["JSONSTORE_ETCD_PASSWORD": "nope"])
            }
            #expect(mirror.status == 1, "\(mirror.stderr)")
            #expect(mirror.stderr.contains("authentication failed"), "\(mirror.stderr)")
            #expect(mirror.stderr.contains("--user"), "\(mirror.stderr)")
        }
    }
}
