import JSONStore

/// A client of etcd's v3 API through its JSON gateway (`/v3/kv/*`, `/v3/watch`), over
/// HTTP/1.1 on a socket of its own: no packages, and nothing a directory store links.
///
/// Requests go to the first endpoint that answers; a connection that fails moves to the
/// next, and the request is sent again there (every request here is idempotent or a
/// compare-and-swap), so none is dropped silently: when no endpoint answers, the error
/// names the last one and why.
///
/// Not thread-safe: one owner uses it.
package final class EtcdClient {
    /// An endpoint, `host:port`.
    package struct Endpoint: Sendable, Equatable, CustomStringConvertible {
        package let host: String
        package let port: UInt16
        package init(host: String, port: UInt16) {
            self.host = host
            self.port = port
        }
        package var description: String { "\(host):\(port)" }
    }

    /// A key and its value, with the revisions etcd keeps for it.
    package struct KeyValue: Sendable, Equatable {
        package let key: [UInt8]
        package let value: [UInt8]
        package let createRevision: Int64
        package let modRevision: Int64
        package let version: Int64
    }

    /// A user's name and password, for an etcd with authentication enabled.
    package struct Credentials: Sendable, Equatable {
        package let user: String
        package let password: String
        package init(user: String, password: String) {
            self.user = user
            self.password = password
        }
    }

    /// Which of etcd's two APIs a client speaks: its own, gRPC over HTTP/2, or the JSON
    /// gateway over HTTP/1.1 etcd serves beside it (on by default, off with
    /// `--enable-grpc-gateway=false`); `automatic` tries gRPC and falls back to the
    /// gateway where the server does not speak HTTP/2 (an HTTP/1.1-only proxy).
    package enum Transport: String, Sendable, Equatable, CaseIterable {
        case automatic = "auto"
        case grpc, gateway
    }

    package let endpoints: [Endpoint]
    /// The seconds any request may take.
    package let timeout: Double
    package let credentials: Credentials?
    /// The TLS context of an `etcds://` store; `nil` for plain HTTP.
    let tls: TLSContext?
    /// The transport asked for.
    package let transport: Transport
    /// The transport spoken, once a connection said which (`grpc` or `gateway`).
    package internal(set) var spoken: Transport?
    var connection: Connection?
    private var current = 0
    /// The endpoint requests go to now.
    var currentIndex: Int { current }

    /// Moves requests to endpoint `index`.
    func move(to index: Int) { current = index }
    /// The token `credentials` got from etcd, until it expires.
    private var token: String?

    /// A connection of either transport (gRPC's held: watches may share it).
    enum Connection {
        case grpc(GRPCHold)
        case gateway(HTTPConnection)
    }

    init(
        endpoints: [Endpoint], timeout: Double = 5, credentials: Credentials? = nil,
        tls: TLSContext? = nil, transport: Transport = .automatic
    ) {
        precondition(!endpoints.isEmpty, "etcd needs an endpoint")
        self.endpoints = endpoints
        self.timeout = timeout
        self.credentials = credentials
        self.tls = tls
        self.transport = transport
    }

    package convenience init(
        endpoints: [Endpoint], timeout: Double = 5, credentials: Credentials? = nil,
        transport: Transport = .automatic
    ) {
        self.init(
            endpoints: endpoints, timeout: timeout, credentials: credentials, tls: nil,
            transport: transport)
    }

    /// A token for `credentials` (authenticating first if there is none yet); `nil` when
    /// there are no credentials.
    package func authToken() throws(EtcdError) -> String? {
        guard let credentials else { return nil }
        if let token { return token }
        let answer: EtcdRPC.AuthenticateResponse
        do {
            answer = try send(
                EtcdMethods.authenticate,
                .init(name: credentials.user, password: credentials.password), token: nil)
        } catch let error
            where error.code == .authenticationFailed
            || error.code == .other(GRPCStatus.Code.invalidArgument.rawValue)
        {
            // etcd refused the name or the password.
            throw EtcdError(
                endpoint: error.endpoint,
                reason: "authentication failed for the user \(credentials.user) (\(error.reason))",
                status: error.status, grpcCode: error.grpcCode, kind: .authenticationFailed)
        }
        guard !answer.token.isEmpty else {
            throw EtcdError(
                endpoint: endpoints[current].description, reason: "etcd gave no auth token")
        }
        token = answer.token
        return answer.token
    }

    /// A token made now for `credentials` (a watch about to start cannot refresh one that
    /// expires later); `nil` when there are no credentials.
    package func freshAuthToken() throws(EtcdError) -> String? {
        token = nil
        return try authToken()
    }

    /// Makes the call `method` with `request` as the user of `credentials`, authenticating
    /// again once if etcd says the token has expired or predates a change of its users and
    /// roles.
    func call<Request, Answer>(_ method: EtcdMethod<Request, Answer>, _ request: Request)
        throws(EtcdError) -> Answer
    {
        do {
            return try send(method, request, token: try authToken())
        } catch let error where credentials != nil && error.code == .staleToken {
            token = nil
            return try send(method, request, token: try authToken())
        }
    }

    /// Makes the call and returns etcd's answer, moving to the next endpoint when a
    /// connection fails before the request went out (or, for a call that may be made
    /// again, at any point), or when the member has no leader (nothing was applied then).
    private func send<Request, Answer>(
        _ method: EtcdMethod<Request, Answer>, _ request: Request, token: String?
    ) throws(EtcdError) -> Answer {
        var lastError: EtcdError?
        var tries = endpoints.count
        while tries > 0 {
            tries -= 1
            var sent = false
            // The whole request, connecting included, however slowly a server answers.
            let deadline = Deadline(seconds: timeout)
            do throws(EtcdError) {
                switch try connected(until: deadline) {
                case .grpc(let hold):
                    sent = true
                    return try exchange(
                        method, request, token: token, on: hold.connection, deadline)
                case .gateway(let connection):
                    try connection.post(
                        method.gatewayPath, body: JSONWriter.compact(request.json), token: token,
                        until: deadline)
                    sent = true  // from here etcd may have applied it
                    return try exchange(method, on: connection, deadline)
                }
            } catch let error where error.answered {
                // A member without a leader applied nothing: another one may have a leader.
                guard error.code == .noLeader, tries > 0 else { throw error }
                lastError = error
                current = (current + 1) % endpoints.count
            } catch {
                lastError = error
                drop()
                if sent && !method.resendable && error.kind != .notTaken {
                    throw EtcdError(
                        endpoint: error.endpoint,
                        reason:
                            "\(error.reason); the write may or may not have been applied, so it is not sent again"
                    )
                }
                current = (current + 1) % endpoints.count
            }
        }
        throw lastError!
    }

    /// The call made on a gRPC connection: the token in its metadata.
    private func exchange<Request, Answer>(
        _ method: EtcdMethod<Request, Answer>, _ request: Request, token: String?,
        on connection: GRPCConnection, _ deadline: Deadline
    ) throws(EtcdError) -> Answer {
        let answer = try connection.call(
            method.path, request.encoded, metadata: token.map { [.init("token", $0)] } ?? [],
            until: deadline)
        do {
            return try Answer(decoding: answer)
        } catch {
            throw connection.bad("an answer of \(method.path) that does not decode: \(error)")
        }
    }

    /// The gateway's answer to the request just posted.
    private func exchange<Request, Answer>(
        _ method: EtcdMethod<Request, Answer>, on connection: HTTPConnection,
        _ deadline: Deadline
    ) throws(EtcdError) -> Answer {
        let head = try connection.head(until: deadline)
        let answer = try connection.body(of: head, until: deadline)
        let value = try? JSONReader(maxDepth: 64, maxSize: .max).read(answer)
        guard head.status == 200, let value else {
            let said =
                value?["message"]?.stringValue ?? value?["error"]?.stringValue
                ?? String(decoding: answer.prefix(200), as: UTF8.self)
            throw EtcdError(
                endpoint: connection.endpoint, reason: Display.escaped(said),
                status: head.status, grpcCode: Self.grpcCode(value?["code"], status: head.status))
        }
        do {
            return try Answer(json: value)
        } catch {
            throw EtcdError(
                endpoint: connection.endpoint,
                reason: "an answer of \(method.gatewayPath) that does not read: \(error.reason)",
                kind: .badResponse)
        }
    }

    /// The gRPC status code of a gateway's refusal: its body's `code`, else what its HTTP
    /// status stands for (the gateway's own mapping, RFC-less but fixed).
    static func grpcCode(_ code: JSONValue?, status: Int) -> Int {
        if let code = code?.int64Field { return Int(code) }
        let named: GRPCStatus.Code =
            switch status {
            case 400: .invalidArgument
            case 401: .unauthenticated
            case 403: .permissionDenied
            case 404: .notFound
            case 429: .resourceExhausted
            case 503: .unavailable
            case 504: .deadlineExceeded
            default: .unknown
            }
        return named.rawValue
    }

    /// Forgets the connection: closed once no watch holds it either.
    func drop() { connection = nil }

    /// The key right after every key that starts with `prefix`: etcd's `range_end` for a
    /// prefix.
    package static func rangeEnd(ofPrefix prefix: [UInt8]) -> [UInt8] {
        var end = prefix
        while let last = end.last {
            if last < 0xFF {
                end[end.count - 1] = last + 1
                return end
            }
            end.removeLast()
        }
        return [0]  // every key
    }
}
