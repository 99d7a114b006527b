import JSONStore

/// The progress of work that lasts: the box drawn over the list while the store loads,
/// resyncs or is sorted anew (`ViewStatus` says which, and since when).
extension ListModel {
    /// The loading overlay: a centred box with a spinner and a progress bar, over the list.
    func drawOverlay(_ frame: inout Frame, now: Double) {
        let boxWidth = min(frame.width - 2, 46)
        let boxHeight = 5
        guard boxWidth >= 12, frame.height >= boxHeight + 2 else { return }
        let left = (frame.width - boxWidth) / 2
        let topRow = max(1, (frame.height - boxHeight) / 2)
        let box = Style(bold: true)
        let spin = Self.spinner[Int(now * 10) % Self.spinner.count]
        var title: String
        var progress: (done: Int, total: Int)?
        var phase: String?
        switch status.state {
        case .loading(let done, let total):
            title = "Loading \(Display.escaped(storePath))"
            if total > 0 { progress = (done, total) }
            phase =
                total == 0
                ? "listing the files" : done < total ? "reading the files" : "building the list"
        case .resyncing(let reason):
            title = "Resyncing: \(Display.escaped(reason))"
        default:
            title = "Sorting by \(Display.escaped(layout.sortDescription ?? "id"))"
        }
        let inner = boxWidth - 4
        frame.put(
            "╭" + String(repeating: "─", count: boxWidth - 2) + "╮", row: topRow, column: left,
            style: box)
        for r in 1...3 {
            frame.fill(row: topRow + r, from: left, to: left + boxWidth, style: Style())
            frame.put("│", row: topRow + r, column: left, style: box)
            frame.put("│", row: topRow + r, column: left + boxWidth - 1, style: box)
        }
        frame.put(
            "╰" + String(repeating: "─", count: boxWidth - 2) + "╯", row: topRow + 4, column: left,
            style: box)
        frame.put(
            TextWidth.truncate("\(spin) \(title)", to: inner), row: topRow + 1, column: left + 2,
            style: Style(bold: true))
        if let phase {
            frame.put(phase, row: topRow + 2, column: left + 4, style: Style(), limit: inner - 2)
        }
        if let progress {
            let counts = "\(Self.number(progress.done)) / \(Self.number(progress.total))"
            let barWidth = max(4, inner - TextWidth.of(counts) - 1)
            let fraction = progress.total > 0 ? Double(progress.done) / Double(progress.total) : 0
            let filled = min(barWidth, Int((Double(barWidth) * fraction).rounded(.down)))
            let bar =
                String(repeating: "█", count: filled)
                + String(repeating: "░", count: barWidth - filled)
            frame.put(
                bar + " " + counts, row: topRow + 3, column: left + 2,
                style: Style(foreground: .cyan))
        } else {
            frame.put(
                "the list below is the last one read", row: topRow + 3, column: left + 2,
                style: Style(dim: true), limit: inner)
        }
    }
}
