import JSONStore

extension EtcdClient {
    /// Every key that starts with `prefix`, at one revision, read in pages (`RangePages`).
    ///
    /// - Parameter revision: the revision to read at; `nil` for the newest.
    /// - Returns: the revision read at, and the keys in key order.
    package func range(
        prefix: [UInt8], revision: Int64? = nil, pageSize: Int = 1_000,
        pageBytes: Int = 4 << 20
    ) throws(EtcdError) -> (revision: Int64, keyValues: [KeyValue]) {
        let listed = try listing(
            prefix: prefix, revision: revision, pageSize: pageSize, pageBytes: pageBytes)
        return (listed.revision, listed.keyValues)
    }

    /// `range`, with the cluster id of the etcd that answered (its response header's).
    func listing(
        prefix: [UInt8], revision: Int64? = nil, pageSize: Int = 1_000,
        pageBytes: Int = 4 << 20
    ) throws(EtcdError) -> (revision: Int64, cluster: String?, keyValues: [KeyValue]) {
        var cluster: String?
        var pages = RangePages(
            prefix: prefix, revision: revision, pageSize: pageSize, pageBytes: pageBytes)
        while true {
            var request: JSONObject = [
                "key": .string(Base64.encode(pages.start)),
                "range_end": .string(Base64.encode(pages.end)),
                "limit": .string(String(pages.limit)),
            ]
            if let at = pages.revision { request["revision"] = .string(String(at)) }
            let answer = try call("/v3/kv/range", .object(request))
            if cluster == nil { cluster = Self.cluster(of: answer) }
            let page = answer["kvs"]?.arrayValue?.compactMap(Self.keyValue) ?? []
            switch pages.take(
                page, at: pages.revision ?? Self.revision(of: answer),
                more: answer["more"] == .bool(true))
            {
            case .success(true): continue
            case .success(false): return (pages.revision ?? 0, cluster, pages.found)
            case .failure(let refusal):
                throw EtcdError(
                    endpoint: endpoints[currentIndex].description, reason: refusal.reason,
                    kind: .badResponse)
            }
        }
    }

    /// The cluster id of a response's header.
    static func cluster(of response: JSONValue) -> String? {
        guard let id = response["header"]?["cluster_id"] else { return nil }
        return id.stringValue ?? int64(id).map(String.init)
    }

    /// Writes `value` at `key`; returns the revision of the write.
    @discardableResult
    package func put(_ key: [UInt8], _ value: [UInt8]) throws(EtcdError) -> Int64 {
        let answer = try call(
            "/v3/kv/put",
            ["key": .string(Base64.encode(key)), "value": .string(Base64.encode(value))])
        return Self.revision(of: answer)
    }

    /// Deletes `key`; returns the revision and whether it existed.
    @discardableResult
    package func delete(_ key: [UInt8]) throws(EtcdError) -> (revision: Int64, existed: Bool) {
        let answer = try call("/v3/kv/deleterange", ["key": .string(Base64.encode(key))])
        return (Self.revision(of: answer), (Self.int64(answer["deleted"]) ?? 0) > 0)
    }

    /// The status of the member that answers (`/v3/maintenance/status`: its version, the
    /// size of its data, its leader), and which endpoint that is.
    package func status() throws(EtcdError) -> (endpoint: String, answer: JSONValue) {
        let answer = try call("/v3/maintenance/status", .object([:]))
        return (endpoints[currentIndex].description, answer)
    }

    /// The value of `key`, with the revision it was read at.
    package func get(_ key: [UInt8]) throws(EtcdError) -> (revision: Int64, keyValue: KeyValue?) {
        let read = try read(key)
        return (read.revision, read.keyValue)
    }

    /// `get`, with the cluster id of the etcd that answered; at `revision` (`nil`: the
    /// newest), as etcd's history holds it then.
    func read(_ key: [UInt8], revision: Int64? = nil) throws(EtcdError) -> (
        revision: Int64, cluster: String?, keyValue: KeyValue?
    ) {
        var request: JSONObject = ["key": .string(Base64.encode(key))]
        if let revision { request["revision"] = .string(String(revision)) }
        let answer = try call("/v3/kv/range", .object(request))
        return (
            Self.revision(of: answer), Self.cluster(of: answer),
            answer["kvs"]?.arrayValue?.first.flatMap(Self.keyValue)
        )
    }

    /// The newest `mod_revision` of the keys from `key` up to `rangeEnd` (not included;
    /// `nil`: `key` alone) that exist now (`nil` when none does), with the revision read at.
    func newestModification(of key: [UInt8], rangeEnd: [UInt8]?) throws(EtcdError) -> (
        revision: Int64, modRevision: Int64?
    ) {
        var request: JSONObject = [
            "key": .string(Base64.encode(key)), "limit": "1", "keys_only": true,
            "sort_order": "DESCEND", "sort_target": "MOD",
        ]
        if let rangeEnd { request["range_end"] = .string(Base64.encode(rangeEnd)) }
        let answer = try call("/v3/kv/range", .object(request))
        let newest = answer["kvs"]?.arrayValue?.first.flatMap(Self.keyValue)
        return (Self.revision(of: answer), newest?.modRevision)
    }

    /// How many keys start with `prefix`, and how many of them were written after
    /// `revision`, both at the newest revision (which is returned too).
    package func count(prefix: [UInt8], modifiedAfter revision: Int64) throws(EtcdError) -> (
        revision: Int64, keys: Int64, newer: Int
    ) {
        let key = JSONValue.string(Base64.encode(prefix))
        let end = JSONValue.string(Base64.encode(Self.rangeEnd(ofPrefix: prefix)))
        let all = try call("/v3/kv/range", ["key": key, "range_end": end, "count_only": true])
        let at = Self.revision(of: all)
        // `min_mod_revision` filters the keys a range returns, not its count.
        let newer = try call(
            "/v3/kv/range",
            [
                "key": key, "range_end": end, "keys_only": true, "revision": .string(String(at)),
                "min_mod_revision": .string(String(revision + 1)),
            ])
        return (at, Self.int64(all["count"]) ?? 0, newer["kvs"]?.arrayValue?.count ?? 0)
    }

    /// One operation of a transaction: put a value at a key, or delete the key (`nil`).
    package struct Operation: Sendable {
        package let key: [UInt8]
        package let value: [UInt8]?
        package init(key: [UInt8], value: [UInt8]?) {
            self.key = key
            self.value = value
        }
    }

    /// Runs `operations` in one transaction if every key of `expected` still has the
    /// `mod_revision` given (0: the key does not exist); returns the revision and whether
    /// they held (nothing was written when not).
    ///
    /// With `unchanged`, one more compare: no key from `start` up to (not including) `end`
    /// was written after `revision` (one compare for many keys that were absent then).
    package func transaction(
        expecting expected: [(key: [UInt8], modRevision: Int64)],
        unchanged: (start: [UInt8], end: [UInt8], since: Int64)? = nil,
        _ operations: [Operation]
    ) throws(EtcdError) -> (revision: Int64, succeeded: Bool) {
        var compares: [JSONValue] = expected.map { key, revision in
            [
                "key": .string(Base64.encode(key)), "target": "MOD", "result": "EQUAL",
                "mod_revision": .string(String(revision)),
            ]
        }
        if let (start, end, since) = unchanged {
            compares.append([
                "key": .string(Base64.encode(start)), "range_end": .string(Base64.encode(end)),
                "target": "MOD", "result": "LESS", "mod_revision": .string(String(since + 1)),
            ])
        }
        let requests: [JSONValue] = operations.map { operation in
            let key = JSONValue.string(Base64.encode(operation.key))
            if let value = operation.value {
                return ["request_put": ["key": key, "value": .string(Base64.encode(value))]]
            }
            return ["request_delete_range": ["key": key]]
        }
        let answer = try call(
            "/v3/kv/txn", ["compare": .array(compares), "success": .array(requests)])
        return (Self.revision(of: answer), answer["succeeded"] == .bool(true))
    }

    /// What a compare-and-swap requires of a key before it writes.
    package enum Expectation: Sendable, Equatable {
        /// The key's `mod_revision` is this one (0: the key does not exist).
        case modRevision(Int64)
    }

    /// Puts (`value`) or deletes (`nil`) `key` in one transaction, if `expectation`
    /// holds; returns the revision and whether it held (nothing was written when not).
    package func write(_ key: [UInt8], _ value: [UInt8]?, if expectation: Expectation)
        throws(EtcdError) -> (revision: Int64, succeeded: Bool)
    {
        guard case .modRevision(let revision) = expectation else { preconditionFailure() }
        return try transaction(
            expecting: [(key, revision)], [Operation(key: key, value: value)])
    }
}
