import JSONStore

/// How each member of an etcd store answers, for `jsonstore doctor`: asked one by one
/// (`Maintenance.Status`), each with a short deadline.
package struct EtcdHealth: Sendable {
    /// One endpoint's answer.
    package struct Member: Sendable {
        package let endpoint: String
        /// What went wrong reaching it; `nil` when it answered.
        package let problem: String?
        /// The kind of that problem (refused credentials are not a member down).
        package let kind: EtcdError.Kind?
        package let version: String
        package let revision: Int64
        package let isLeader: Bool
        package let databaseBytes: Int64
        /// `gRPC`, or `the JSON gateway` when the member does not speak HTTP/2.
        package let transport: String
    }

    package let members: [Member]

    /// Asks every endpoint of `address` for its status.
    package init(
        address: EtcdAddress, credentials: EtcdClient.Credentials?, tls: EtcdTLS?,
        timeout: Double = 2
    ) {
        var context: TLSContext?
        var problem: String?
        do {
            context = try address.tlsContext(tls)
        } catch {
            problem = error.message
        }
        members = address.endpoints.map { endpoint in
            if let problem {
                return Self.unreachable(endpoint.description, problem, .other)
            }
            let client = EtcdClient(
                endpoints: [endpoint], timeout: timeout, credentials: credentials, tls: context,
                transport: address.transport)
            do throws(EtcdError) {
                let (_, answer, transport) = try client.status()
                return Member(
                    endpoint: endpoint.description, problem: nil, kind: nil,
                    version: answer.version.isEmpty ? "?" : answer.version,
                    revision: answer.header.revision,
                    isLeader: answer.header.memberID != 0
                        && answer.leader == answer.header.memberID,
                    databaseBytes: answer.databaseSize, transport: transport.name)
            } catch {
                return Self.unreachable(endpoint.description, error.reason, error.kind)
            }
        }
    }

    private static func unreachable(_ endpoint: String, _ problem: String, _ kind: EtcdError.Kind)
        -> Member
    {
        Member(
            endpoint: endpoint, problem: problem, kind: kind, version: "", revision: 0,
            isLeader: false, databaseBytes: 0, transport: "")
    }
}
