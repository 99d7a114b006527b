import JSONStore

/// How each member of an etcd store answers, for `jsonstore doctor`: asked one by one
/// (`/v3/maintenance/status`), each with a short deadline.
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
                endpoints: [endpoint], timeout: timeout, credentials: credentials, tls: context)
            do throws(EtcdError) {
                let (_, answer) = try client.status()
                let member = answer["header"]?["member_id"]?.stringValue
                return Member(
                    endpoint: endpoint.description, problem: nil, kind: nil,
                    version: answer["version"]?.stringValue ?? "?",
                    revision: EtcdClient.revision(of: answer),
                    isLeader: member != nil && answer["leader"]?.stringValue == member,
                    databaseBytes: EtcdClient.int64(answer["dbSize"]) ?? 0)
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
            isLeader: false, databaseBytes: 0)
    }
}
