import Dispatch
import JSONStore

/// A listing built from a range's pages as they come, while the next is asked for: each
/// page's keys sorted into items, bad names and the schema on the thread that reads them,
/// its item values parsed on every core in the background. A listing of a large prefix
/// then takes about as long as its range, not the range and the parse one after the other.
///
/// One thread hands it the pages (`take`), in key order, then asks for the listing; it
/// waits in `take` while `pagesAhead` pages are still being parsed.
final class PageParser: @unchecked Sendable {  // all but `parsed` are the handing thread's
    private let layout: EtcdLayout
    private let reader: JSONReader
    private let group = DispatchGroup()
    /// Pages taken and not parsed yet, at most: a range read faster than it is parsed
    /// waits rather than holding every page's keys and values at once.
    private let ahead = DispatchSemaphore(value: PageParser.pagesAhead)
    static let pagesAhead = 2
    /// Each page's outcomes, and the key-values of its invalid items (whose last valid
    /// value a follower looks for in etcd's history), by page.
    private let parsed = Locked<
        [Int: (outcomes: [ItemFile.Outcome], invalid: [EtcdClient.KeyValue])]
    >([:])
    private var pages = 0
    private var listing = SourceListing(ids: [], outcomes: [], badNames: [:], revision: 0)

    init(layout: EtcdLayout, reader: JSONReader) {
        self.layout = layout
        self.reader = reader
    }

    /// Takes the next page: its keys sorted by what `EtcdLayout.entry` says they are, its
    /// items' values parsed in the background.
    func take(_ page: [EtcdClient.KeyValue]) {
        let index = pages
        pages += 1
        var items: [(id: String, keyValue: EtcdClient.KeyValue)] = []
        for keyValue in page {
            switch layout.entry(keyValue.key) {
            case .item(let id):
                listing.ids.append(id)
                items.append((id, keyValue))
            case .invalid(let file):
                listing.badNames[UTF8Key(file.name)] = file
            case .own:
                if keyValue.key == layout.schemaKey { listing.schemaDocument = keyValue.value }
            }
        }
        let (pageItems, pageLayout, pageReader, slots, ahead) = (
            items, layout, reader, parsed, ahead
        )
        ahead.wait()
        DispatchQueue.global().async(group: group) {
            defer { ahead.signal() }
            let outcomes = ItemFile.outcomes(
                pageItems.count, parallelAbove: EtcdBackend.parallelParseThreshold
            ) {
                pageLayout.outcome(of: pageItems[$0].id, pageItems[$0].keyValue, reader: pageReader)
            }
            let invalid = outcomes.indices.compactMap { i -> EtcdClient.KeyValue? in
                if case .invalid = outcomes[i] { pageItems[i].keyValue } else { nil }
            }
            slots.withLock { $0[index] = (outcomes, invalid) }
        }
    }

    /// The listing of every page taken, at `revision`, once all are parsed, and the
    /// key-values of its invalid items.
    func listing(at revision: Int64) -> (SourceListing, invalid: [EtcdClient.KeyValue]) {
        group.wait()
        var listing = listing
        listing.revision = revision
        let pages = parsed.withLock { parsed in (0..<self.pages).map { parsed[$0] } }
        listing.outcomes = pages.flatMap { $0?.outcomes ?? [] }
        return (listing, pages.flatMap { $0?.invalid ?? [] })
    }
}
