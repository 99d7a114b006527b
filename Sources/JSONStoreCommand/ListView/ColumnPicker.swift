/// The list view's column picker (`c`): every field the items have, each shown or not,
/// in the order the columns will have.
struct ColumnPicker: Equatable {
    /// Every field offered, `id` excluded (it is always the first column).
    private(set) var fields: [String]
    /// The fields to show, in the order chosen.
    private(set) var chosen: [String]
    /// The row the cursor is on.
    private(set) var cursor = 0

    /// A picker over `fields` (the shown ones first, in their order, then the others),
    /// with `shown` chosen.
    init(fields: [String], shown: [String]) {
        let shown = shown.filter { $0 != "id" }
        self.fields = shown + fields.filter { $0 != "id" && !shown.contains($0) }
        chosen = shown
    }

    /// What a key asks of the picker.
    enum Outcome: Equatable {
        case stay
        case apply([String])
        case cancel
    }

    mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .up, .character("k"): cursor = max(0, cursor - 1)
        case .down, .character("j"): cursor = min(fields.count - 1, cursor + 1)
        case .home, .character("g"): cursor = 0
        case .end, .character("G"): cursor = max(0, fields.count - 1)
        case .character(" "), .character("x"): toggle()
        case .enter: return .apply(chosen)
        case .escape, .character("q"), .character("c"): return .cancel
        default: break
        }
        return .stay
    }

    /// Shows the field under the cursor, at the end of the columns, or hides it.
    private mutating func toggle() {
        guard fields.indices.contains(cursor) else { return }
        let field = fields[cursor]
        if let index = chosen.firstIndex(of: field) {
            chosen.remove(at: index)
        } else {
            chosen.append(field)
        }
    }

    /// Each field's line: `[x] title`, the cursor's marked with `›`.
    var lines: [(text: String, isCursor: Bool)] {
        fields.enumerated().map { index, field in
            let mark = chosen.firstIndex(of: field).map { "[\($0 + 1)]" } ?? "[ ]"
            return ("\(mark) \(field)", index == cursor)
        }
    }
}
