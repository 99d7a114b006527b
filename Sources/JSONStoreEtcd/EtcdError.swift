import JSONStore

/// A failure talking to etcd: which endpoint, and what went wrong or what etcd said.
package struct EtcdError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is, for callers that act on it (a mirror gives up on a
    /// permanent one, `doctor` picks its fix), so none of them reads the message.
    package enum Kind: Sendable, Equatable {
        /// Nothing listens at the endpoint.
        case connectionRefused
        /// The host name does not resolve.
        case unknownHost
        /// The server's TLS certificate is not trusted.
        case untrustedCertificate
        /// etcd refused the user's name or password.
        case authenticationFailed
        /// No whole answer within the request's deadline.
        case timedOut
        /// What the server sent is not an answer this client reads (a broken or hostile
        /// server): a malformed head, a bad length, a line or body over its cap.
        case badResponse
        /// The server does not speak HTTP/2 (an HTTP/1.1-only proxy in front of etcd, or a
        /// TLS server that did not choose `h2`): the JSON gateway may.
        case notHTTP2
        /// The server did not take the call (its GOAWAY, a refused stream, a connection
        /// given up before the call began): nothing of it was applied, so it may be made
        /// again, a write included.
        case notTaken
        /// Anything else: a connection lost, a system call failing, etcd's own error (then
        /// `status` is set).
        case other

        /// Whether trying again cannot help until a person changes something: the host, the
        /// trusted certificates, the user or the password.
        package var isPermanent: Bool {
            self == .unknownHost || self == .untrustedCertificate || self == .authenticationFailed
        }
    }

    /// The endpoint, `host:port`.
    package let endpoint: String
    /// What happened: a system call's failure, a timeout, or etcd's own message, safe for a
    /// terminal (every byte a server sent is escaped).
    package let reason: String
    /// The HTTP status the gateway answered with, when it answered.
    package let status: Int?
    /// The gRPC status code etcd answered with, when it answered with an error (the
    /// gateway gives it too).
    package let grpcCode: Int?
    /// That answer by etcd's name for it.
    package let code: Code?
    package let kind: Kind

    package init(
        endpoint: String, reason: String, status: Int? = nil, grpcCode: Int? = nil,
        kind: Kind = .other
    ) {
        self.endpoint = endpoint
        self.reason = Display.escaped(reason)
        self.status = status
        self.grpcCode = grpcCode
        code = grpcCode.map { Code(status: $0, message: reason) }
        self.kind = kind
    }

    /// Whether etcd answered (with an error), rather than the connection failing.
    package var answered: Bool { status != nil || grpcCode != nil }

    package var description: String { "etcd at \(endpoint): \(reason)" }
}
