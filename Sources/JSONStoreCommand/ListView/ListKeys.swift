/// The list's keys (the rows, not the prompts, the picker or a file): what each asks for,
/// and the words the footer and the help give it. One table, so the keys, the footer and
/// the help say the same.
enum ListKeys {
    /// What a key asks for.
    enum Intent: Equatable {
        case quit, up, down, pageUp, pageDown, first, last
        case filter, clearFilter, sortNext, sortReverse, pickColumns
        case open, edit, create, delete
        case mark, pane, history, undo, counts, copy, help
    }

    /// A key of the list, with what it does.
    struct Binding {
        let keys: [Key]
        /// The keys as the help shows them (`↑ k`).
        let label: String
        let intent: Intent
        let help: String
    }

    static let bindings: [Binding] = [
        Binding(keys: [.character("q")], label: "q", intent: .quit, help: "quit (or Ctrl-C)"),
        Binding(keys: [.up, .character("k")], label: "↑ k", intent: .up, help: "move up"),
        Binding(keys: [.down, .character("j")], label: "↓ j", intent: .down, help: "move down"),
        Binding(keys: [.pageUp], label: "PgUp", intent: .pageUp, help: "a page up"),
        Binding(keys: [.pageDown], label: "PgDn", intent: .pageDown, help: "a page down"),
        Binding(keys: [.home, .character("g")], label: "g", intent: .first, help: "the first row"),
        Binding(keys: [.end, .character("G")], label: "G", intent: .last, help: "the last row"),
        Binding(
            keys: [.enter], label: "Enter", intent: .open,
            help: "the row's file; with conflicts (!), both versions"),
        Binding(
            keys: [.character(" ")], label: "Space", intent: .mark,
            help: "mark or unmark the row, and move down"),
        Binding(
            keys: [.character("/")], label: "/", intent: .filter,
            help: "filter: words as text, status=done priority>2 as --where"),
        Binding(
            keys: [.escape], label: "Esc", intent: .clearFilter,
            help: "clear the marks, else the filter"),
        Binding(
            keys: [.character("s")], label: "s", intent: .sortNext, help: "sort by the next column"),
        Binding(
            keys: [.character("S")], label: "S", intent: .sortReverse, help: "reverse the order"),
        Binding(
            keys: [.character("c")], label: "c", intent: .pickColumns, help: "pick the columns"),
        Binding(
            keys: [.character("p")], label: "p", intent: .pane,
            help: "the row's JSON beside the list, changes lit (p again hides it)"),
        Binding(
            keys: [.character("h")], label: "h", intent: .history,
            help: "the row's history: each change and its members (h again hides it)"),
        Binding(
            keys: [.character("u")], label: "u", intent: .undo,
            help: "undo the row's last change, after y/N"
        ),
        Binding(
            keys: [.character("f")], label: "f", intent: .counts,
            help: "count the values of a field, live; Enter on one filters by it"),
        Binding(
            keys: [.character("e")], label: "e", intent: .edit,
            help: "edit the row's file (the marked ones as one document)"),
        Binding(
            keys: [.character("n")], label: "n", intent: .create,
            help: "a new item from the row's members"),
        Binding(
            keys: [.character("d")], label: "d", intent: .delete,
            help: "delete the item (the marked ones, in one batch)"),
        Binding(
            keys: [.character("y")], label: "y", intent: .copy,
            help: "copy the id (the marked ids) to the clipboard"),
        Binding(keys: [.character("?")], label: "?", intent: .help, help: "these keys"),
    ]

    /// What `key` asks for in the list, if anything.
    static func intent(for key: Key) -> Intent? {
        bindings.first { $0.keys.contains(key) }?.intent
    }

    /// The footer's line of keys.
    static let footer =
        " q quit  ↑↓ move  / filter  s S sort  c columns  e edit  n new  d delete  ? keys"
}
