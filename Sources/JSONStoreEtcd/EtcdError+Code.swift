extension EtcdError {
    /// What etcd answered, by its own name for the error (its `rpctypes`: the message that
    /// names it, under a gRPC status code), read once where the answer comes in. Every
    /// decision (move to another member, authenticate again, refuse, give up) reads this,
    /// never the message.
    package enum Code: Sendable, Equatable {
        /// The member has no leader: it applied nothing; another may have one.
        case noLeader
        /// The token expired, or predates a change of etcd's users and roles.
        case staleToken
        /// The user's name or password was refused.
        case authenticationFailed
        /// The user may not do this.
        case permissionDenied
        /// etcd has authentication on, and no user was given.
        case userEmpty
        /// The request is over etcd's size limit (`--max-request-bytes`), or gRPC's.
        case requestTooLarge
        /// The transaction has more operations than etcd takes (`--max-txn-ops`).
        case tooManyOperations
        /// The revision asked for was compacted away.
        case compacted
        /// The revision asked for is not reached yet.
        case futureRevision
        /// Another answer, by its gRPC status code.
        case other(Int)

        /// etcd's names for its errors, as its messages say them.
        private static let names: [(String, Code)] = [
            ("no leader", .noLeader), ("invalid auth token", .staleToken),
            ("revision of auth store is old", .staleToken),
            ("authentication failed", .authenticationFailed),
            ("permission denied", .permissionDenied), ("user name is empty", .userEmpty),
            ("request is too large", .requestTooLarge),
            ("received message larger than max", .requestTooLarge),
            ("too many operations in txn request", .tooManyOperations),
            ("required revision has been compacted", .compacted),
            ("required revision is a future revision", .futureRevision),
        ]

        /// The code of an answer with gRPC status `status` and `message`.
        init(status: Int, message: String) {
            self = Self.names.first { message.contains($0.0) }?.1 ?? .other(status)
        }

        /// Whether etcd refused the credentials or the permissions, rather than the request.
        package var isRefusal: Bool {
            switch self {
            case .staleToken, .authenticationFailed, .permissionDenied, .userEmpty: true
            // Under a name not known here.
            case .other(let status):
                status == GRPCStatus.Code.permissionDenied.rawValue
                    || status == GRPCStatus.Code.unauthenticated.rawValue
            default: false
            }
        }
    }
}
