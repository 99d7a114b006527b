import Dispatch
import JSONStore
import JSONStoreEtcd
import TestSupport
import Testing

extension EtcdTests {
    /// A store on an etcd that serves TLS only and requires a client certificate: the
    /// right files work, live; a server the CA did not sign and a missing client
    /// certificate are clear errors that name the endpoint.
    @Suite("etcd over TLS (etcds://)")
    struct TLS {
        @Test("with the CA and a client certificate: reads, writes and follows")
        func library() async throws {
            let certificates = try TestCertificates()
            let server = try await blocking { try EtcdServer(certificates: certificates) }
            let tls = EtcdTLS(
                caCertificate: certificates.ca, certificate: certificates.clientCertificate,
                key: certificates.clientKey)
            let store = try JSONStore(etcd: [server.endpoint], prefix: "tasks", tls: tls)
            #expect(store.path == "etcds://\(server.endpoint)/tasks")
            try store.put("tea", ["title": "Make tea"])
            let recorder = ChangeRecorder()
            let token = store.observe(on: DispatchQueue(label: "observer"), recorder.callback)
            defer { token.invalidate() }
            #expect(await recorder.wait { $0.ids == ["tea"] })
            try await server.etcdctl(["put", "tasks/bread", #"{"title":"Buy bread"}"#])
            #expect(await recorder.wait { $0.ids == ["bread", "tea"] })
            await store.synchronize()
            #expect(try store.load().items.count == 2)
        }

        @Test("an untrusted server, no client certificate, plain HTTP to TLS: clear errors")
        func refusals() async throws {
            let certificates = try TestCertificates()
            let server = try await blocking { try EtcdServer(certificates: certificates) }
            let stranger = #expect(throws: StoreError.self) {
                try JSONStore(
                    etcd: [server.endpoint], prefix: "tasks",
                    tls: EtcdTLS(
                        caCertificate: certificates.otherCA,
                        certificate: certificates.clientCertificate, key: certificates.clientKey),
                    timeout: 3)
            }
            #expect(
                stranger?.message.contains("the server's certificate is not trusted") == true,
                "\(String(describing: stranger))")
            #expect(stranger?.message.contains(server.endpoint) == true)
            let anonymous = #expect(throws: StoreError.self) {
                try JSONStore(
                    etcd: [server.endpoint], prefix: "tasks",
                    tls: EtcdTLS(caCertificate: certificates.ca), timeout: 3)
            }
            #expect(
                anonymous?.message.contains(server.endpoint) == true,
                "\(String(describing: anonymous))")
            let missing = #expect(throws: StoreError.self) {
                try JSONStore(
                    etcd: [server.endpoint], prefix: "tasks",
                    tls: EtcdTLS(caCertificate: "/nonexistent/ca.crt"), timeout: 3)
            }
            #expect(missing?.message.contains("--cacert") == true, "\(String(describing: missing))")
            #expect(throws: StoreError.self) {
                try JSONStore(etcd: [server.endpoint], prefix: "tasks", timeout: 3)
            }
        }

        @Test("an untrusted certificate: doctor names it; mirror ends with it, no retrying")
        func untrustedCommands() async throws {
            let certificates = try TestCertificates()
            let server = try await blocking { try EtcdServer(certificates: certificates) }
            let files = [
                "--cacert", certificates.otherCA, "--cert", certificates.clientCertificate,
                "--key", certificates.clientKey,
            ]
            let address = "etcds://\(server.endpoint)/tasks"
            let doctor = try await blocking {
                try JSONStoreBinary.run(["--store", address] + files + ["doctor"])
            }
            #expect(doctor.status == 1)
            #expect(
                doctor.stdout.contains("endpoint  \(server.endpoint): certificate not trusted"),
                "\(doctor.stdout)")
            let temp = try TemporaryStore()
            let arguments = (["--dir", temp.path] + files + ["mirror", address]).map { "'\($0)'" }
            let mirror = try await blocking {
                try JSONStoreBinary.shell(
                    "timeout -s KILL 20 \"$JSONSTORE\" \(arguments.joined(separator: " "))")
            }
            #expect(mirror.status == 1, "\(mirror.stderr)")
            #expect(
                mirror.stderr.contains("the server's certificate is not trusted"),
                "\(mirror.stderr)")
            #expect(mirror.stderr.contains("--cacert"), "\(mirror.stderr)")
        }

        @Test("the command: etcds:// with --cacert, --cert and --key")
        func command() async throws {
            let certificates = try TestCertificates()
            let server = try await blocking { try EtcdServer(certificates: certificates) }
            try await server.etcdctl(["put", "tasks/tea", "{}"])
            let files = [
                "--cacert", certificates.ca, "--cert", certificates.clientCertificate, "--key",
                certificates.clientKey,
            ]
            let address = "etcds://\(server.endpoint)/tasks"
            let listed = try await blocking {
                try JSONStoreBinary.run(["--store", address] + files + ["list", "-o", "ids"])
            }
            #expect(listed.status == 0 && listed.stdout == "tea\n", "\(listed.stderr)")
            let plain = try await blocking {
                try JSONStoreBinary.run(
                    ["--store", "etcd://\(server.endpoint)/tasks"] + files + ["list"])
            }
            #expect(plain.status == 1 && plain.stderr.contains("etcds://"), "\(plain.stderr)")
        }
    }
}
