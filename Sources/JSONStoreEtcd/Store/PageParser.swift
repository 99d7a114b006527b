import Dispatch
import JSONStore

/// A range's pages parsed as they come, while the next is asked for: each page's item
/// values parsed on every core in the background, the outcomes kept in page order. A
/// listing of a large prefix then takes about as long as its range, not the range and
/// the parse one after the other.
///
/// One thread hands it the pages (`take`), in key order, then asks for the outcomes.
final class PageParser: @unchecked Sendable {  // `next` is the handing thread's alone
    private let layout: EtcdLayout
    private let reader: JSONReader
    private let group = DispatchGroup()
    private let parsed = Locked<[Int: [ItemFile.Outcome]]>([:])
    private var next = 0

    init(layout: EtcdLayout, reader: JSONReader) {
        self.layout = layout
        self.reader = reader
    }

    /// Takes the next page: its items (the keys that are item ids, as `EtcdLayout.entry`
    /// says) parsed in the background.
    func take(_ page: [EtcdClient.KeyValue]) {
        let index = next
        next += 1
        let items = page.compactMap { keyValue -> (String, EtcdClient.KeyValue)? in
            guard case .item(let id) = self.layout.entry(keyValue.key) else { return nil }
            return (id, keyValue)
        }
        let (pageLayout, pageReader, slots) = (layout, reader, parsed)
        DispatchQueue.global().async(group: group) {
            let outcomes = ItemFile.outcomes(
                items.count, parallelAbove: EtcdBackend.parallelParseThreshold
            ) { pageLayout.outcome(of: items[$0].0, items[$0].1, reader: pageReader) }
            slots.withLock { $0[index] = outcomes }
        }
    }

    /// The outcomes of every page's items, in order, once all are parsed.
    func outcomes() -> [ItemFile.Outcome] {
        group.wait()
        return parsed.withLock { pages in (0..<next).flatMap { pages[$0] ?? [] } }
    }
}
