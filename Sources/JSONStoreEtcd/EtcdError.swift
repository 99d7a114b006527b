/// A failure talking to etcd: which endpoint, and what went wrong or what etcd said.
package struct EtcdError: Error, Sendable, CustomStringConvertible {
    /// The endpoint, `host:port`.
    package let endpoint: String
    /// What happened: a system call's failure, a timeout, or etcd's own message.
    package let reason: String
    /// The HTTP status etcd answered with, when it answered.
    package let status: Int?

    package init(endpoint: String, reason: String, status: Int? = nil) {
        self.endpoint = endpoint
        self.reason = reason
        self.status = status
    }

    package var description: String { "etcd at \(endpoint): \(reason)" }
}
