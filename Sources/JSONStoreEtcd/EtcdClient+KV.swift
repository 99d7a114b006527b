import JSONStore

extension EtcdClient {
    /// Every key that starts with `prefix`, at one revision, read in pages (`RangePages`).
    ///
    /// - Parameters:
    ///   - revision: the revision to read at; `nil` for the newest.
    ///   - onPage: called with each page as it is taken, in key order; the pages are not
    ///     kept then.
    /// - Returns: the revision read at, and the keys in key order (none with `onPage`).
    package func range(
        prefix: [UInt8], revision: Int64? = nil, pageSize: Int = 1_000,
        pageBytes: Int = 4 << 20, onPage: (([KeyValue]) -> Void)? = nil
    ) throws(EtcdError) -> (revision: Int64, keyValues: [KeyValue]) {
        let listed = try listing(
            prefix: prefix, revision: revision, pageSize: pageSize, pageBytes: pageBytes,
            onPage: onPage)
        return (listed.revision, listed.keyValues)
    }

    /// `range`, with the cluster id of the etcd that answered (its response header's).
    func listing(
        prefix: [UInt8], revision: Int64? = nil, pageSize: Int = 1_000,
        pageBytes: Int = 4 << 20, onPage: (([KeyValue]) -> Void)? = nil
    ) throws(EtcdError) -> (revision: Int64, cluster: String?, keyValues: [KeyValue]) {
        let read = try RangePages.read(
            prefix: prefix, revision: revision, pageSize: pageSize, pageBytes: pageBytes,
            page: { request throws(EtcdError) in try call(EtcdMethods.range, request) },
            onPage: onPage,
            refused: { reason in
                EtcdError(
                    endpoint: endpoints[currentIndex].description, reason: reason,
                    kind: .badResponse)
            })
        return (read.revision, Self.cluster(of: read.header), read.keyValues)
    }

    /// The cluster id of a response's header, in decimal.
    static func cluster(of header: EtcdRPC.ResponseHeader) -> String? {
        header.clusterID == 0 ? nil : String(header.clusterID)
    }

    /// Writes `value` at `key`; returns the revision of the write.
    @discardableResult
    package func put(_ key: [UInt8], _ value: [UInt8]) throws(EtcdError) -> Int64 {
        try call(EtcdMethods.put, .init(key: key, value: value)).header.revision
    }

    /// Deletes `key`; returns the revision and whether it existed.
    @discardableResult
    package func delete(_ key: [UInt8]) throws(EtcdError) -> (revision: Int64, existed: Bool) {
        let answer = try call(EtcdMethods.deleteRange, .init(key: key))
        return (answer.header.revision, answer.deleted > 0)
    }

    /// The status of the member that answers (its version, the size of its data, its
    /// leader), which endpoint that is, and the transport that asked.
    func status() throws(EtcdError) -> (
        endpoint: String, answer: EtcdRPC.StatusResponse, transport: Transport
    ) {
        let answer = try call(EtcdMethods.status, EmptyRequest())
        return (endpoints[currentIndex].description, answer, spoken ?? transport)
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
        let answer = try call(EtcdMethods.range, .init(key: key, revision: revision ?? 0))
        return (answer.header.revision, Self.cluster(of: answer.header), answer.keyValues.first)
    }

    /// The newest `mod_revision` of the keys from `key` up to `rangeEnd` (not included;
    /// `nil`: `key` alone) that exist now (`nil` when none does), with the revision read at.
    func newestModification(of key: [UInt8], rangeEnd: [UInt8]?) throws(EtcdError) -> (
        revision: Int64, modRevision: Int64?
    ) {
        var request = EtcdRPC.RangeRequest(key: key, rangeEnd: rangeEnd ?? [], limit: 1)
        request.keysOnly = true
        request.sortByNewestModification = true
        let answer = try call(EtcdMethods.range, request)
        return (answer.header.revision, answer.keyValues.first?.modRevision)
    }

    /// Asks etcd for one key under `prefix` and its revision: the cheapest read that
    /// proves the endpoint, the credentials and the permissions on the prefix (a count of a
    /// large prefix reads each of its keys).
    @discardableResult
    package func probe(prefix: [UInt8]) throws(EtcdError) -> Int64 {
        var request = EtcdRPC.RangeRequest(
            key: prefix, rangeEnd: Self.rangeEnd(ofPrefix: prefix), limit: 1)
        request.keysOnly = true
        return try call(EtcdMethods.range, request).header.revision
    }

    /// How many keys start with `prefix`, and how many of them were written after
    /// `revision`, both at the newest revision (which is returned too).
    package func count(prefix: [UInt8], modifiedAfter revision: Int64) throws(EtcdError) -> (
        revision: Int64, keys: Int64, newer: Int
    ) {
        var all = EtcdRPC.RangeRequest(key: prefix, rangeEnd: Self.rangeEnd(ofPrefix: prefix))
        all.countOnly = true
        let counted = try call(EtcdMethods.range, all)
        let at = counted.header.revision
        // `min_mod_revision` filters the keys a range returns, not its count.
        var newer = EtcdRPC.RangeRequest(
            key: prefix, rangeEnd: Self.rangeEnd(ofPrefix: prefix), revision: at)
        newer.keysOnly = true
        newer.minModRevision = revision + 1
        return (at, counted.count, try call(EtcdMethods.range, newer).keyValues.count)
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
        var compares = expected.map { key, revision in
            EtcdRPC.Compare(key: key, result: .equal, target: .modRevision(revision))
        }
        if let (start, end, since) = unchanged {
            compares.append(
                .init(key: start, result: .less, target: .modRevision(since + 1), rangeEnd: end))
        }
        let requests = operations.map { operation -> EtcdRPC.RequestOp in
            if let value = operation.value { return .put(.init(key: operation.key, value: value)) }
            return .deleteRange(.init(key: operation.key))
        }
        let answer = try call(
            EtcdMethods.transaction, .init(compare: compares, success: requests))
        return (answer.header.revision, answer.succeeded)
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
