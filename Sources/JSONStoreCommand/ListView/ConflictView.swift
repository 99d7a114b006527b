import JSONStore

/// Enter on a row with conflicts: the item as it is beside one kept version of it at a
/// time, and the keys that end them (`i` keeps the item, `v` the version shown, `e` merges
/// both by hand in the editor). The keys name what is on screen, not mine or theirs: on a
/// mirror's conflict the item is the other machine's edit and the version this one's.
struct ConflictView {
    let id: String
    /// The item's lines as it is now (pretty JSON, escaped), or why there is none.
    private(set) var mine: [String]
    private(set) var versions: [Conflict]
    /// Which version is shown.
    private(set) var shown = 0
    private(set) var scroll = 0

    /// What a key asks for.
    enum Outcome: Equatable {
        case stay, close
        case keepItem
        case keep(Conflict)
        case merge(Conflict)
    }

    init(id: String, item: Item?, conflicts: [Conflict]) {
        self.id = id
        mine = []
        versions = []
        _ = update(item: item, conflicts: conflicts)
    }

    /// The item and its conflicts after a change; `false` when none is left.
    mutating func update(item: Item?, conflicts: [Conflict]) -> Bool {
        mine = item.map { Self.lines(JSONWriter.pretty(.object($0.object))) } ?? ["(no item)"]
        let current = versions.indices.contains(shown) ? versions[shown].name : nil
        versions = conflicts
        shown = current.flatMap { name in conflicts.firstIndex { $0.name == name } } ?? 0
        return !conflicts.isEmpty
    }

    mutating func handle(_ key: Key, page: Int) -> Outcome {
        switch key {
        case .escape, .character("q"), .enter: return .close
        case .up, .character("k"): scroll = max(0, scroll - 1)
        case .down, .character("j"): scroll += 1
        case .pageUp: scroll = max(0, scroll - page)
        case .pageDown: scroll += page
        case .home, .character("g"): scroll = 0
        case .character("n"):
            shown = (shown + 1) % versions.count
            scroll = 0
        case .character("N"):
            shown = (shown + versions.count - 1) % versions.count
            scroll = 0
        case .character("i"): return .keepItem
        case .character("v"): return .keep(versions[shown])
        case .character("e"): return .merge(versions[shown])
        default: break
        }
        return .stay
    }

    /// `tea: conflict 1 of 2`.
    var title: String {
        "\(Display.escaped(id)): conflict \(shown + 1) of \(versions.count)"
    }

    /// The item's lines, then the version shown, each under a heading.
    var lines: [String] {
        let version = versions[shown]
        let theirs = versions.allSatisfy(\.isMine) ? " (theirs: the edit etcd took first)" : ""
        let whose =
            !version.isMine
            ? " (mine or theirs cannot be told)"
            : versions.count == 1 ? " (mine: this machine's edit)" : " (this machine's edit)"
        return ["this item, as it is\(theirs):"] + mine.map { "  " + $0 } + [""]
            + [
                "the version from \(Display.escaped(version.origin))\(whose), kept in \(Display.escaped(version.name)):"
            ] + Self.lines(version.bytes).map { "  " + $0 }
    }

    /// The footer's keys.
    var keys: String {
        let next = versions.count > 1 ? "  n next version" : ""
        return " i keep the item  v keep that version  e merge both in $VISUAL\(next)  Esc back"
    }

    private static func lines(_ bytes: [UInt8]) -> [String] {
        var lines = String(decoding: bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map { Display.escaped(String($0)) }
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
