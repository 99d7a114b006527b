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
    }
}
