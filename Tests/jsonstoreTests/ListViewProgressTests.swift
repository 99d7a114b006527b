import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// Every phase of a large store's loading and sorting shows progress once it lasts longer
/// than about 150 ms: the files listed, read (a count), the list built, a new order.
@Suite("The list view's progress, phase by phase")
struct ListViewProgressTests {
    /// A model of a store still loading, in id order (`sort` empty) or not.
    func loading(sort: [SortField] = []) -> ListModel {
        ListModel(storePath: "big", requestedColumns: nil, sort: sort)
    }

    @Test("id order: the header says each phase of loading, with a spinner that turns")
    func header() {
        var model = loading()
        model.setState(.loading(done: 0, total: 0), now: 0)
        let listing = model.frame(width: 100, height: 10, now: 0.2).text[0]
        #expect(listing.contains("listing the files"), "\(listing)")
        model.setState(.loading(done: 40_700, total: 100_000), now: 0.5)
        let reading = model.frame(width: 100, height: 10, now: 0.6).text[0]
        #expect(reading.contains("40,700 / 100,000"), "\(reading)")
        // No count of items before they are in: it said `0 items · loading` over the
        // first rows read.
        #expect(!reading.contains("0 items"), "\(reading)")
        model.setState(.loading(done: 100_000, total: 100_000), now: 1)
        let building = model.frame(width: 100, height: 10, now: 1.2).text[0]
        #expect(building.contains("100,000 / 100,000, building the list"), "\(building)")
        // The spinner turns about ten times a second while a phase lasts.
        #expect(model.frame(width: 100, height: 10, now: 1.3).text[0] != building)
    }

    @Test("another order: the box says the list is being built once every file is read")
    func overlay() {
        var model = loading(sort: [SortField(field: FieldPath("title"), descending: false)])
        model.setState(.loading(done: 0, total: 0), now: 0)
        var text = model.frame(width: 80, height: 24, now: 0.2).text.joined(separator: "\n")
        #expect(text.contains("listing the files"), "\(text)")
        model.setState(.loading(done: 100_000, total: 100_000), now: 1)
        text = model.frame(width: 80, height: 24, now: 1.2).text.joined(separator: "\n")
        #expect(text.contains("building the list"), "\(text)")
    }

    @Test("s: a new order shows `sorting` at once and a box after 150 ms, until it comes")
    func resort() {
        let (results, _) = makeResults(30)
        var model = liveModel(results)
        model.sortStarted(now: 10)
        var text = model.frame(width: 80, height: 24, now: 10.05).text
        #expect(text[0].contains("sorting"), "\(text[0])")
        #expect(!text.joined().contains("╭"))  // not before 150 ms
        text = model.frame(width: 80, height: 24, now: 10.2).text
        #expect(text.joined(separator: "\n").contains("Sorting"), "\(text)")
        model.apply(.initial(results), now: 10.3, clock: "")
        text = model.frame(width: 80, height: 24, now: 10.4).text
        #expect(!text[0].contains("sorting"), "\(text[0])")
        #expect(!text.joined().contains("╭"))
    }

    @Test("a new order that fails: the header says failed, and no box stays")
    func resortFails() {
        let (results, _) = makeResults(30)
        var model = liveModel(results)
        model.sortStarted(now: 10)
        model.setState(
            .failed(StoreError(code: .storeUnavailable, message: "gone")), now: 10.1)
        let text = model.frame(width: 80, height: 24, now: 11).text
        #expect(text[0].contains("failed"), "\(text[0])")
        #expect(!text[0].contains("sorting"), "\(text[0])")
        #expect(!text.joined().contains("╭"), "the box went with the order")
    }
}
