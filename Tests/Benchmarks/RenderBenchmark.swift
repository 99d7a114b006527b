import JSONStore
import JSONStoreCommand

/// Drives the list view's renderer without a terminal, for `scripts/bench render`.
enum RenderBenchmark {
    /// Draws `frames` frames of `results` on a `width`×`height` screen, moving the
    /// selection down and up a row in turn (so every frame changes two rows); returns the
    /// bytes written for each frame after the first, and calls `tick` around each frame.
    static func run(
        _ results: Results<Item>, frames: Int, width: Int, height: Int, tick: () -> Void
    ) -> [Int] {
        var model = liveModel(results)
        var screen = Screen(color: true)
        _ = screen.update(to: model.frame(width: width, height: height, now: 0))
        var sizes: [Int] = []
        for i in 0..<frames {
            tick()
            _ = model.handle(i % 2 == 0 ? .down : .up, page: ListModel.page(height: height))
            let bytes = screen.update(to: model.frame(width: width, height: height, now: Double(i)))
            tick()
            sizes.append(bytes.utf8.count)
        }
        return sizes
    }

    /// Types `needle` into the list view's filter, one key at a time, drawing a frame after
    /// each; calls `tick` around each key and its frame. With `indexFirst`, the search
    /// index is built first, as the app does off the main queue for a big store, and
    /// `tick` is called around that too. Returns how many rows match.
    static func filter(
        _ results: Results<Item>, needle: String, width: Int, height: Int, indexFirst: Bool = false,
        tick: () -> Void
    ) -> Int {
        var model = liveModel(results)
        if indexFirst, let job = model.searchIndexToBuild() {
            tick()
            model.install(SearchIndex(job.results, table: job.table), for: job.results.version)
            tick()
        }
        var screen = Screen(color: true)
        _ = screen.update(to: model.frame(width: width, height: height, now: 0))
        let page = ListModel.page(height: height)
        _ = model.handle(.character("/"), page: page)
        for c in needle {
            tick()
            _ = model.handle(.character(c), page: page)
            _ = screen.update(to: model.frame(width: width, height: height, now: 0))
            tick()
        }
        return model.visibleCount
    }

    /// A list view model showing `results`, live.
    private static func liveModel(_ results: Results<Item>) -> ListModel {
        var model = ListModel(storePath: "bench")
        model.setState(.live, now: 0)
        model.apply(.initial(results), now: 0, clock: "00:00:00")
        return model
    }
}
