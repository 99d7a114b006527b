import JSONStore

/// Drives the list view's renderer without a terminal, for `scripts/bench render`.
package enum RenderBenchmark {
    /// Draws `frames` frames of `results` on a `width`×`height` screen, moving the
    /// selection down and up a row in turn (so every frame changes two rows); returns the
    /// bytes written for each frame after the first, and calls `tick` around each frame.
    package static func run(
        _ results: Results, frames: Int, width: Int, height: Int, tick: () -> Void
    ) -> [Int] {
        var model = ListModel(storePath: "bench", requestedColumns: nil)
        model.setState(.live, now: 0)
        model.apply(.initial(results), now: 0, clock: "00:00:00")
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
}
