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

    package let endpoints: [Endpoint]
    /// The seconds any request may take.
    package let timeout: Double
    package let credentials: Credentials?
    /// The TLS context of an `etcds://` store; `nil` for plain HTTP.
    let tls: TLSContext?
    private var connection: HTTPConnection?
    private var current = 0
    /// The endpoint requests go to now.
    var currentIndex: Int { current }
    /// The token `credentials` got from etcd, until it expires.
    private var token: String?

    init(
        endpoints: [Endpoint], timeout: Double = 5, credentials: Credentials? = nil,
        tls: TLSContext? = nil
    ) {
        precondition(!endpoints.isEmpty, "etcd needs an endpoint")
        self.endpoints = endpoints
        self.timeout = timeout
        self.credentials = credentials
        self.tls = tls
    }

    package convenience init(
        endpoints: [Endpoint], timeout: Double = 5, credentials: Credentials? = nil
    ) {
        self.init(endpoints: endpoints, timeout: timeout, credentials: credentials, tls: nil)
    }

    /// A token for `credentials` (authenticating first if there is none yet); `nil` when
    /// there are no credentials.
    package func authToken() throws(EtcdError) -> String? {
        guard let credentials else { return nil }
        if let token { return token }
        let answer: JSONValue
        do {
            answer = try send(
                "/v3/auth/authenticate",
                ["name": .string(credentials.user), "password": .string(credentials.password)],
                token: nil)
        } catch let error where error.status == 400 || error.status == 401 {
            // etcd refused the name or the password (gRPC's InvalidArgument, as 400).
            throw EtcdError(
                endpoint: error.endpoint,
                reason: "authentication failed for the user \(credentials.user) (\(error.reason))",
                status: error.status, kind: .authenticationFailed)
        }
        guard let made = answer["token"]?.stringValue else {
            throw EtcdError(
                endpoint: endpoints[current].description, reason: "etcd gave no auth token")
        }
        token = made
        return made
    }

    /// A token made now for `credentials` (a watch about to start cannot refresh one that
    /// expires later); `nil` when there are no credentials.
    package func freshAuthToken() throws(EtcdError) -> String? {
        token = nil
        return try authToken()
    }

    /// `POST`s `body` to `path` as the user of `credentials`, authenticating again once if
    /// etcd says the token has expired or predates a change of its users and roles.
    func call(_ path: String, _ body: JSONValue) throws(EtcdError) -> JSONValue {
        do {
            return try send(path, body, token: try authToken())
        } catch let error where credentials != nil && Self.isStaleToken(error) {
            token = nil
            return try send(path, body, token: try authToken())
        }
    }

    /// Whether etcd refused a token that was good once: expired, or older than a change of
    /// its users and roles.
    static func isStaleToken(_ error: EtcdError) -> Bool {
        error.reason.contains("invalid auth token")
            || error.reason.contains("revision of auth store is old")
    }

    /// Whether a request may be sent again when it is not known whether etcd applied it:
    /// reads and authentication may; writes (`put`, `txn`, `deleterange`) may not, since a
    /// compare-and-swap sent twice would fail against its own first write.
    static func mayResend(_ path: String) -> Bool {
        !["/v3/kv/put", "/v3/kv/txn", "/v3/kv/deleterange"].contains(path)
    }

    /// `POST`s `body` to `path` and returns the JSON answer, moving to the next endpoint
    /// when a connection fails before the request went out (or, for a read, at any point),
    /// or when the member has no leader (nothing was applied then).
    private func send(_ path: String, _ body: JSONValue, token: String?) throws(EtcdError)
        -> JSONValue
    {
        let bytes = JSONWriter.compact(body)
        let resendable = Self.mayResend(path)
        var lastError: EtcdError?
        var tries = endpoints.count
        while tries > 0 {
            tries -= 1
            var sent = false
            // The whole request, connecting included, however slowly a server answers.
            let deadline = Deadline(seconds: timeout)
            do throws(EtcdError) {
                var connection = try connected(until: deadline)
                if connection.responses > 0 && connection.socket.isClosedByPeer {
                    // Kept alive, but the server has closed it meanwhile: a fresh one, before
                    // anything goes out on a connection that may be dead.
                    self.connection = nil
                    connection = try connected(until: deadline)
                }
                try connection.post(path, body: bytes, token: token, until: deadline)
                sent = true  // from here etcd may have applied it
                let head = try connection.head(until: deadline)
                let answer = try connection.body(of: head, until: deadline)
                let value = try? JSONReader(maxDepth: 64, maxSize: .max).read(answer)
                guard head.status == 200, let value else {
                    let said =
                        value?["message"]?.stringValue ?? value?["error"]?.stringValue
                        ?? String(decoding: answer.prefix(200), as: UTF8.self)
                    throw EtcdError(
                        endpoint: connection.endpoint, reason: Display.escaped(said),
                        status: head.status)
                }
                return value
            } catch let error where error.status != nil {
                // A member without a leader applied nothing: another one may have a leader.
                guard error.reason.contains("no leader"), tries > 0 else { throw error }
                lastError = error
                current = (current + 1) % endpoints.count
            } catch {
                lastError = error
                self.connection = nil
                if sent && !resendable {
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

    private func connected(until deadline: Deadline) throws(EtcdError) -> HTTPConnection {
        if let connection { return connection }
        let endpoint = endpoints[current]
        let made = try HTTPConnection(
            host: endpoint.host, port: endpoint.port, tls: tls, until: deadline)
        connection = made
        return made
    }

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

    /// The revision of a response's header.
    static func revision(of response: JSONValue) -> Int64 {
        response["header"]?["revision"].flatMap(int64) ?? 0
    }

    /// An int64 field, which the gateway writes as a string (and omits when it is 0).
    static func int64(_ value: JSONValue?) -> Int64? {
        switch value {
        case .string(let text)?: Int64(text)
        case .number(let number)?: Int64(number.text)
        default: nil
        }
    }

    static func keyValue(_ value: JSONValue) -> KeyValue? {
        guard case .string(let key)? = value["key"], let keyBytes = Base64.decode(key) else {
            return nil
        }
        return KeyValue(
            key: keyBytes, value: value["value"]?.stringValue.flatMap(Base64.decode) ?? [],
            createRevision: int64(value["create_revision"]) ?? 0,
            modRevision: int64(value["mod_revision"]) ?? 0,
            version: int64(value["version"]) ?? 0)
    }
}
