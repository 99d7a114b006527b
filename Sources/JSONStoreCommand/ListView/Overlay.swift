/// What is over the list view's rows and takes the keys: nothing (the list, and the `/`
/// filter while it is typed), `?`'s keys, a question in the footer, the column picker,
/// `f`'s counts, an item's conflicts, or a file shown whole. One at a time, each with the
/// state it needs, so the model handles, draws and words the footer in one order.
enum Overlay {
    /// The rows take the keys.
    case none
    /// `?`: the list's keys over the rows, scrolled by this many lines where they do not fit
    /// (↑ ↓ scroll them then; any other key closes them).
    case help(scroll: Int)
    /// A question in the footer (`n`'s id, `d`'s y/N, `f`'s field), over the rows.
    case prompt(FooterPrompt)
    /// `c`: the column picker.
    case picker(ColumnPicker)
    /// `f`: each value of a field with how many items have it, live.
    case counts(CountsView)
    /// Enter on a row with conflicts: the item beside each kept version.
    case conflicts(ConflictView)
    /// Enter: the row's file as it is on disk.
    case file(FileView)
}
