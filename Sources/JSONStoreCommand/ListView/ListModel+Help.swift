import JSONStore

/// `?`: the list's keys over the rows, from the one table the keys are read from
/// (`ListKeys`), scrolled where they do not fit.
extension ListModel {
    /// How many of `?`'s keys show on a page of `page` rows (the box's title and last line
    /// take two).
    static func helpRows(page: Int) -> Int { max(0, page - 2) }

    /// `?`: the list's keys, from the one table the keys are read from, over the list;
    /// where they do not fit, from the `scroll`th on, with how many more there are.
    func drawHelp(_ frame: inout Frame, scroll: Int, page: Int) {
        let bindings = ListKeys.bindings
        let labelWidth = bindings.map { TextWidth.of($0.label) }.max() ?? 1
        let width = min(frame.width - 2, 76)
        let rows = min(bindings.count, Self.helpRows(page: page))
        guard width >= 20, rows > 0 else { return }
        let first = max(0, min(scroll, bindings.count - rows))
        let scrolls = rows < bindings.count
        let left = (frame.width - width) / 2
        let box = Style(bold: true)
        frame.fill(row: 1, from: left, to: left + width, style: box)
        let title =
            scrolls
            ? " Keys (\(first + 1)-\(first + rows) of \(bindings.count); ↑↓ scroll, other keys close)"
            : " Keys (any key closes this)"
        frame.put(TextWidth.truncate(title, to: width), row: 1, column: left, style: box)
        for (offset, binding) in bindings.dropFirst(first).prefix(rows).enumerated() {
            let row = 2 + offset
            frame.fill(row: row, from: left, to: left + width, style: Style())
            let line = TextWidth.fit(binding.label, to: labelWidth) + "  " + binding.help
            frame.put(
                TextWidth.truncate(" " + line, to: width), row: row, column: left, style: Style())
        }
        frame.fill(row: 2 + rows, from: left, to: left + width, style: Style())
        let below = bindings.count - first - rows
        if below > 0 {
            frame.put(
                TextWidth.truncate(" ↓ \(below) more", to: width), row: 2 + rows, column: left,
                style: Style(dim: true))
        }
    }

    /// Where `?`'s keys are scrolled to after `key`, from `scroll`, on a page of `page`
    /// rows; `nil` when the key closes them (any key but ↑ ↓ j k, and those too when
    /// every key fits).
    static func helpScroll(after key: Key, from scroll: Int, page: Int) -> Int? {
        let hidden = ListKeys.bindings.count - helpRows(page: page)
        guard hidden > 0 else { return nil }
        switch key {
        case .down, .character("j"): return min(hidden, scroll + 1)
        case .up, .character("k"): return max(0, scroll - 1)
        default: return nil
        }
    }
}
