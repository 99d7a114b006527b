import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// While another writer is at work (git's index lock, a store batch), edits are held back:
/// the list view's header and the stream's `status` event say what is held and why.
@Suite("The held state, in the header and the stream")
struct HeldStateTests {
    @Test("the header says edits are held, and why, instead of `live`")
    func header() {
        let (results, _) = makeResults(3)
        var model = liveModel(results)
        model.setState(.held(reason: "git is writing (index.lock)"), now: 1)
        let text = model.frame(width: 100, height: 10, now: 1.5).text
        #expect(text[0].contains("held: git is writing (index.lock)"), "\(text[0])")
        #expect(!text[0].contains("live"))
        #expect(!text.joined().contains("╭"))  // no overlay: the rows are the last published
        model.setState(.live, now: 2)
        #expect(model.frame(width: 100, height: 10, now: 2).text[0].contains(" · live"))
    }

    @Test("the stream's status event names the state `held` with its reason")
    func stream() {
        #expect(
            NDJSON.status(.held(reason: "git is writing (index.lock)"))
                == #"{"event":"status","state":"held","reason":"git is writing (index.lock)"}"#
                + "\n")
    }
}
