import Foundation
import TestSupport
import Testing

extension EtcdTests {
    @Suite("jsonstore doctor on etcd")
    struct Doctor {
        @Test("doctor on etcd: each endpoint's health and revision; one down is a problem")
        func doctorOnEtcd() async throws {
            let server = try await blocking { try EtcdServer() }
            try await server.etcdctl(["put", "tasks/tea", "{\"title\": \"Tea\"}"])
            let address = "etcd://\(server.endpoint)/tasks"
            let healthy = try await blocking {
                try JSONStoreBinary.run(["--store", address, "doctor"])
            }
            #expect(healthy.status == 0, "\(healthy.stdout)")
            #expect(healthy.stdout.contains("endpoint  \(server.endpoint): healthy, etcd "))
            #expect(healthy.stdout.contains(", the leader, revision 2, "))
            #expect(healthy.stdout.contains(" of data, over gRPC"))
            if server.servesGateway {
                let forced = try await blocking {
                    try JSONStoreBinary.run([
                        "--store", address, "--etcd-transport", "gateway", "doctor",
                    ])
                }
                #expect(
                    forced.stdout.contains(" of data, over the JSON gateway"), "\(forced.stdout)")
            }
            #expect(healthy.stdout.contains("items     1, 0 invalid, 0 conflicts"))
            let port = try EtcdServer.freePort()
            let withDead = "etcd://\(server.endpoint),127.0.0.1:\(port)/tasks"
            let down = try await blocking {
                try JSONStoreBinary.run(["--store", withDead, "doctor"])
            }
            #expect(down.status == 1)
            #expect(down.stdout.contains("endpoint  127.0.0.1:\(port): unreachable"))
            #expect(
                down.stdout.contains("  fix: start that member, or leave it out of the address"))
        }

        /// Not with etcd's gateway off (`.ci/run`'s second run): nothing to fall back to.
        @Test(
            "behind a proxy that speaks HTTP/1.1 only: doctor and check say the gateway",
            .enabled(if: !EtcdServer.environmentArguments.contains("--enable-grpc-gateway=false")))
        func fallbackSaid() async throws {
            let server = try await blocking { try EtcdServer() }
            try await blocking {
                _ = try server.etcdctl(["put", "tasks/tea", "{\"title\": \"Tea\"}"])
            }
            let proxy = try CuttingProxy(to: server.clientPort, speaksHTTP2: false)
            defer { proxy.stop() }
            let address = "etcd://\(proxy.endpoint)/tasks"
            let doctor = try await blocking {
                try JSONStoreBinary.run(["--store", address, "doctor"])
            }
            #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
            #expect(
                doctor.stdout.contains("\(proxy.endpoint): healthy, etcd "), "\(doctor.stdout)")
            #expect(doctor.stdout.contains(" of data, over the JSON gateway"), "\(doctor.stdout)")
            #expect(doctor.stdout.contains("items     1, 0 invalid, 0 conflicts"))
            let check = try await blocking {
                try JSONStoreBinary.run(["--store", address, "check"])
            }
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            #expect(check.stderr.contains("1 key, 0 invalid"), "\(check.stderr)")
            #expect(
                check.stderr.contains("at \(proxy.endpoint) over the JSON gateway"),
                "\(check.stderr)")
            // gRPC forced through it: refused, and the reason says HTTP/2.
            let forced = try await blocking {
                try JSONStoreBinary.run(["--store", address, "--etcd-transport", "grpc", "check"])
            }
            #expect(forced.status != 0)
            #expect(forced.stderr.contains("HTTP/2"), "\(forced.stderr)")
        }
    }
}
