import Dispatch
import JSONStore

/// A listing built from a range's pages as they come, while the next is asked for: each
/// page's keys sorted into items, bad names and the schema on the thread that reads them,
/// its item values parsed on every core in the background. A listing of a large prefix
/// then takes about as long as its range, not the range and the parse one after the other.
///
/// One thread hands it the pages (`take`), in key order, then asks for the listing.
final class PageParser: @unchecked Sendable {  // all but `parsed` are the handing thread's
    private let layout: EtcdLayout
    private let reader: JSONReader
    private let group = DispatchGroup()
    private let parsed = Locked<[Int: [ItemFile.Outcome]]>([:])
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
        let (pageItems, pageLayout, pageReader, slots) = (items, layout, reader, parsed)
        DispatchQueue.global().async(group: group) {
            let outcomes = ItemFile.outcomes(
                pageItems.count, parallelAbove: EtcdBackend.parallelParseThreshold
            ) {
                pageLayout.outcome(of: pageItems[$0].id, pageItems[$0].keyValue, reader: pageReader)
            }
            slots.withLock { $0[index] = outcomes }
        }
    }

    /// The listing of every page taken, at `revision`, once all are parsed.
    func listing(at revision: Int64) -> SourceListing {
        group.wait()
        var listing = listing
        listing.revision = revision
        listing.outcomes = parsed.withLock { parsed in (0..<pages).flatMap { parsed[$0] ?? [] } }
        return listing
    }
}
