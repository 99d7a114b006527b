import JSONStore

/// A store on an etcd key prefix, as `JSONStore` reads, writes and follows it.
///
/// Requests go through a small pool of clients (`EtcdClients`), so a `JSONStore` on etcd
/// is safe to use from any thread like one on a directory.
final class EtcdBackend: RemoteBackend {
    let layout: EtcdLayout
    /// The clients every request, the follower's watch included, is made with.
    let clients: EtcdClients
    var endpoints: [EtcdClient.Endpoint] { clients.endpoints }
    var timeout: Double { clients.timeout }
    var tls: TLSContext? { clients.tls }

    init(
        endpoints: [EtcdClient.Endpoint], prefix: String, timeout: Double,
        credentials: EtcdClient.Credentials? = nil, tls: TLSContext? = nil,
        transport: EtcdClient.Transport = .automatic
    ) {
        clients = EtcdClients(
            endpoints: endpoints, timeout: timeout, credentials: credentials, tls: tls,
            transport: transport)
        layout = EtcdLayout(prefix: prefix)
    }

    var address: String {
        (tls == nil ? "etcd://" : "etcds://") + endpoints.map(\.description).joined(separator: ",")
            + "/" + layout.prefix
    }

    func location(of id: String) -> String { layout.location(of: id) }

    /// Runs `body` with a client of the pool (`EtcdClients`), its error as the store's.
    func withClient<R>(_ body: (EtcdClient) throws(EtcdError) -> R) throws(StoreError) -> R {
        do {
            return try clients.withClient(body)
        } catch {
            throw storeError(error)
        }
    }

    /// `error` as the store reports it: a store's error as it is, etcd's as below.
    func storeError(of error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? EtcdError { return storeError(error) }
        return StoreError(code: .storeUnavailable, message: "\(error)", file: address)
    }

    /// `error` as the store reports it: the endpoint and what happened or what etcd said.
    func storeError(_ error: EtcdError, id: String? = nil) -> StoreError {
        StoreError(
            code: .storeUnavailable, message: error.description,
            file: id.map(location) ?? address, id: id, underlying: error)
    }

    func read(_ id: String, reader: JSONReader) throws(StoreError) -> ItemFile.Outcome {
        let key = layout.key(of: id)
        guard
            let found = try withClient({ client throws(EtcdError) in try client.get(key) }).keyValue
        else { return .missing }
        return layout.outcome(of: id, found, reader: reader)
    }

    var schemaLocation: String { layout.location(of: ".jsonstore/schema.json") }

    func schemaDocument() throws(StoreError) -> [UInt8]? {
        let key = layout.schemaKey
        return try withClient { client throws(EtcdError) in try client.get(key) }.keyValue?.value
    }

    /// Sets the schema's key (`nil`: removes it) through the writer, compare-and-swap on
    /// what it held; whether it held one.
    @discardableResult
    func setSchemaDocument(_ document: [UInt8]?) throws(StoreError) -> Bool {
        let replacement: EtcdWriter.Replacement
        do {
            replacement = try EtcdWriter(clients: clients).replace(layout.schemaKey, with: document)
        } catch {
            throw storeError(error)
        }
        guard case .replaced(let previous) = replacement else {
            throw StoreError(
                code: .conflict,
                message: "was changed in etcd by other writers on every try; nothing was written",
                file: schemaLocation)
        }
        return previous != nil
    }

    func rawValue(of id: String, limit: Int) throws(StoreError) -> (bytes: [UInt8], etag: String)? {
        guard ItemID.problem(with: id) == nil else { return nil }
        let key = layout.key(of: id)
        let found = try withClient { client throws(EtcdError) in try client.get(key) }.keyValue
        guard let found else { return nil }
        guard found.value.count <= limit else {
            throw ItemFile.tooLarge(found.value.count, limit: limit, file: location(of: id), id: id)
        }
        return (found.value, String(found.modRevision))
    }

    func forEachChunk(
        of size: Int, reader: JSONReader,
        _ body: (_ items: [Item], _ schemaDocument: [UInt8]?) throws -> Void
    ) throws -> [InvalidFile] {
        let listing = try self.listing(reader: reader)
        var invalid = Array(listing.badNames.values)
        for start in stride(from: 0, to: listing.ids.count, by: max(size, 1)) {
            var items: [Item] = []
            for i in start..<min(listing.ids.count, start &+ size) {
                switch listing.outcomes[i] {
                case .item(let item): items.append(item)
                case .invalid(let error):
                    invalid.append(
                        InvalidFile(
                            name: ItemID.fileName(listing.ids[i]), id: listing.ids[i], error: error)
                    )
                case .missing: continue
                }
            }
            try body(items, listing.schemaDocument)
        }
        invalid.sort { UTF8Key.less($0.name, $1.name) }
        return invalid
    }

    /// The whole prefix at one revision, as the pipeline and `load` see it; with
    /// `lastValid`, each invalid item's last valid value (a follower's listing: what it
    /// keeps then depends only on the revision, as a resumed list's does).
    func listing(reader: JSONReader, lastValid: Bool = false) throws(StoreError)
        -> SourceListing
    {
        var (listing, invalid) = try parsedListing(at: nil, reader: reader)
        if lastValid { try keepLastValid(in: &listing, invalid, reader: reader, strict: false) }
        return listing
    }

    func listing(at revision: Int64, reader: JSONReader) throws(StoreError) -> SourceListing {
        do {
            var (listing, invalid) = try parsedListing(at: revision, reader: reader)
            try keepLastValid(in: &listing, invalid, reader: reader, strict: true)
            return listing
        } catch {
            throw unavailable(Int(revision), error)
        }
    }

    /// The prefix at `revision` (`nil`: the newest), its pages parsed as they come
    /// (`PageParser`), with the key-values of its invalid items.
    private func parsedListing(at revision: Int64?, reader: JSONReader) throws(StoreError)
        -> (SourceListing, invalid: [EtcdClient.KeyValue])
    {
        let pages = PageParser(layout: layout, reader: reader)
        let read = try withClient { client throws(EtcdError) in
            try client.range(
                prefix: layout.keyPrefix, revision: revision, pageBytes: Self.listingPageBytes,
                onPage: pages.take
            ).revision
        }
        return pages.listing(at: read)
    }

    /// How many versions of one key are read back, at most, for its last valid value.
    static let lastValidSearchLimit = 100

    /// Fills in `listing.lastValid`: for each item invalid in it, the value a follower
    /// keeps, the last valid one of the key's life (since it was created) before then,
    /// read from etcd's history a version at a time, `lastValidSearchLimit` at most.
    /// `keyValues` are the listing's invalid items' (at least).
    ///
    /// - Parameter strict: throw when the value cannot be known (etcd compacted the
    ///   history it needs, or the key has more invalid versions than the limit), for a
    ///   resumed list, which must be the one the follower kept; else leave it out, for a
    ///   follower's own listing, which then keeps none.
    private func keepLastValid(
        in listing: inout SourceListing, _ keyValues: [EtcdClient.KeyValue], reader: JSONReader,
        strict: Bool
    ) throws(StoreError) {
        let invalid = listing.outcomes.indices.filter {
            if case .invalid = listing.outcomes[$0] { true } else { false }
        }
        guard !invalid.isEmpty else { return }
        let byKey = Dictionary(keyValues.map { ($0.key, $0) }) { first, _ in first }
        for i in invalid {
            let id = listing.ids[i]
            let key = layout.key(of: id)
            guard var older = byKey[key] else { continue }
            let life = older.createRevision
            var searched = 0
            while older.modRevision > life {
                searched += 1
                guard searched <= Self.lastValidSearchLimit else {
                    guard strict else { break }
                    throw StoreError(
                        code: .notFound,
                        message:
                            "\(location(of: id)) was invalid in over \(Self.lastValidSearchLimit) versions before revision \(listing.revision): the last valid value a follower kept is not looked for further back",
                        file: address, id: id)
                }
                let before = older.modRevision - 1
                let read: EtcdClient.KeyValue?
                do {
                    read = try withClient { client throws(EtcdError) in
                        try client.read(key, revision: before).keyValue
                    }
                } catch {
                    guard Self.saysCompacted(error) else { throw error }
                    guard strict else { break }
                    throw StoreError(
                        code: .notFound,
                        message:
                            "etcd has compacted away the history of \(location(of: id)) before revision \(listing.revision), where it was invalid: the last valid value a follower kept cannot be known",
                        file: address, id: id)
                }
                guard let previous = read, previous.createRevision == life else { break }
                if case .item(let item) = layout.outcome(of: id, previous, reader: reader) {
                    listing.lastValid[i] = item
                    break
                }
                older = previous
            }
        }
    }

    /// `etcd 3.4.23 at 127.0.0.1:2379, 24 KiB of data; …`, with the limits etcd puts on
    /// requests and transactions (its API does not say whether they were changed).
    func serverSummary() -> String? {
        guard let status = try? withClient({ client throws(EtcdError) in try client.status() })
        else {
            return nil
        }
        let version = status.answer.version.isEmpty ? "?" : status.answer.version
        let size = ItemFile.byteCount(Int(status.answer.databaseSize))
        return
            "etcd \(version) at \(status.endpoint) over \(status.transport.name), \(size) of data"
            + "; its limits are the store's: a request of at most 1.5 MiB (--max-request-bytes)"
            + " and a transaction of at most 128 operations (--max-txn-ops), unless etcd was"
            + " started with others"
    }

    /// The bytes of a page of a listing: each page is held as its message and as its
    /// key-values while it is parsed, so its size is the listing's memory beyond the items.
    /// Measured on 100,000 items of 350 bytes against the same items as files: pages of
    /// 4 MiB peaked 15 MiB above the directory follower, 2 MiB level with it, 1 MiB 4 MiB
    /// below but 1.5x etcdctl's time against 1.2x (BENCHMARKS.md, issue 29).
    static let listingPageBytes = 2 << 20

    /// Values parsed one by one below this count; above it, on every core.
    static let parallelParseThreshold = 256

    func makeBatch(reader: JSONReader) -> any BatchStorage {
        EtcdBatch(backend: self, reader: reader)
    }

    func makeSource(
        reader: JSONReader, keepingIn recent: RecentBytes,
        report: @escaping @Sendable (SourceReport) -> Void
    ) -> any LiveSource {
        EtcdSource(backend: self, reader: reader, recent: recent, report: report)
    }
}
