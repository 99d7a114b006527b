/// Which of a store's files differ from what an earlier look at them knew: the pass a
/// second start makes instead of reading every file (git's `status` against its index).
///
/// Each file is looked at with one `fstatat`, not opened. It is unchanged when its
/// signature is the one recorded and that signature was settled when recorded
/// (`FileSignature.isSettled`); anything else is read again: a new file, one rewritten
/// (even at the same size with its time put back), replaced by a rename, or changed in the
/// tick the look was made.
struct StartComparison: Sendable, Equatable {
    /// The names whose recorded item can be used as it is.
    var unchanged: [String] = []
    /// The names to read: new, changed, or not known to be settled.
    var toRead: [String] = []
    /// The names recorded that the directory no longer has.
    var gone: [String] = []

    /// Compares the files `names` of `directory` with `known`, the signatures an earlier
    /// look recorded by name (its bytes), that look having begun at `start`
    /// (`FileDescriptor.stamp`).
    init(
        _ names: [String], in directory: FileDescriptor, known: [UTF8Key: FileSignature],
        lookedAt start: Int64
    ) {
        var seen = 0
        for name in names {
            guard let recorded = known[UTF8Key(name)] else {
                toRead.append(name)
                continue
            }
            seen += 1
            if recorded.isSettled(before: start), directory.signature(of: name) == recorded {
                unchanged.append(name)
            } else {
                toRead.append(name)
            }
        }
        if seen < known.count {
            // By bytes: `é` and `e` + U+0301 are two files.
            let present = Set(names.map(UTF8Key.init))
            gone = known.keys.filter { !present.contains($0) }.sorted().map(\.string)
        }
    }
}
