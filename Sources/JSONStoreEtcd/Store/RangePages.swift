/// A prefix read in pages at one revision, whatever the transport: each page `limit` keys
/// from the key after the last one read, so a large prefix is a consistent snapshot that
/// never arrives in one answer.
///
/// The first page is `pageSize` keys; later ones are sized from the keys seen so far to
/// about `pageBytes` each, between `pageSize` and 16 times it: etcd 3.4 walks the prefix
/// up to each page's end, so many small pages cost more than a few large ones.
struct RangePages {
    /// Where the next page begins, and where the prefix ends.
    private(set) var start: [UInt8]
    let end: [UInt8]
    /// The revision read at: the caller's, or the first page's.
    private(set) var revision: Int64?
    /// How many keys the next page asks for.
    private(set) var limit: Int
    /// The keys read, unless each page is handed on instead (`keeps`).
    private(set) var found: [EtcdClient.KeyValue] = []
    private let keeps: Bool
    private var keysSeen = 0
    private let pageSize: Int
    private let pageBytes: Int
    private var bytesSeen = 0

    init(prefix: [UInt8], revision: Int64?, pageSize: Int, pageBytes: Int, keeps: Bool = true) {
        (start, end, self.revision) = (prefix, EtcdClient.rangeEnd(ofPrefix: prefix), revision)
        self.keeps = keeps
        (limit, self.pageSize, self.pageBytes) = (pageSize, pageSize, pageBytes)
    }

    /// Takes a page read at `revision`, which had `more` after it: whether another is due.
    /// A page must start at `start`, stay in order and move on: a server that sends one
    /// again (or keys out of order) would otherwise be read forever.
    mutating func take(_ page: [EtcdClient.KeyValue], at revision: Int64, more: Bool)
        -> Result<Bool, Refusal>
    {
        if self.revision == nil { self.revision = revision }
        guard
            page.allSatisfy({ !$0.key.lexicographicallyPrecedes(start) })
                && zip(page, page.dropFirst()).allSatisfy({
                    $0.key.lexicographicallyPrecedes($1.key)
                })
        else { return .failure(Refusal()) }
        if keeps { found += page }
        keysSeen += page.count
        bytesSeen += page.reduce(0) { $0 + $1.key.count + $1.value.count }
        let average = max(1, bytesSeen / max(keysSeen, 1))
        limit = min(max(pageBytes / average, pageSize), pageSize * 16)
        guard more, let last = page.last else { return .success(false) }
        start = last.key + [0]  // the smallest key after the last one read
        return .success(true)
    }

    /// Every key from `prefix`, at `revision` (`nil`: the first page's), each page asked
    /// of `page`; a page that does not move on is `refused`'s error. With `onPage`, each
    /// page is handed to it as taken and not kept (a listing of a large prefix never holds
    /// all its keys and values at once).
    ///
    /// - Returns: the revision read at, the first answer's header, and the keys in order
    ///   (none with `onPage`).
    static func read(
        prefix: [UInt8], revision: Int64?, pageSize: Int, pageBytes: Int,
        page: (EtcdRPC.RangeRequest) throws(EtcdError) -> EtcdRPC.RangeResponse,
        onPage: (([EtcdClient.KeyValue]) -> Void)? = nil,
        refused: (String) -> EtcdError
    ) throws(EtcdError) -> (
        revision: Int64, header: EtcdRPC.ResponseHeader, keyValues: [EtcdClient.KeyValue]
    ) {
        var pages = RangePages(
            prefix: prefix, revision: revision, pageSize: pageSize, pageBytes: pageBytes,
            keeps: onPage == nil)
        var first: EtcdRPC.ResponseHeader?
        while true {
            let answer = try page(
                .init(
                    key: pages.start, rangeEnd: pages.end, limit: Int64(pages.limit),
                    revision: pages.revision ?? 0))
            if first == nil { first = answer.header }
            switch pages.take(
                answer.keyValues, at: pages.revision ?? answer.header.revision, more: answer.more)
            {
            case .success(let more):
                onPage?(answer.keyValues)
                if !more { return (pages.revision ?? 0, first!, pages.found) }
            case .failure(let refusal):
                throw refused(refusal.reason)
            }
        }
    }

    /// A page that does not move past the keys already read.
    struct Refusal: Error {
        let reason = "a page of a range that does not move past the keys already read"
    }
}
