import JSONStore

/// What `resolve --keep mine` and `--keep theirs` stand for among an item's conflicts, in
/// the words `check` and `resolve` print.
///
/// `mine` is the version made on this machine, `theirs` the other one. A version the
/// mirror kept (`Conflict.isMine`) is this machine's edit and the item the one etcd took
/// first; another tool's copy cannot tell, and then the version is named with `--keep FILE`.
enum ConflictWords {
    /// What `item` holds when `--keep theirs` keeps it.
    static let theirs = "theirs: the item, the edit etcd took first"

    /// `check`'s line for `conflict`, one of `all` (its item's conflicts): the conflict,
    /// then which word keeps which version.
    static func line(_ conflict: Conflict, among all: [Conflict]) -> String {
        "\(conflict.description) (\(words(conflict, among: all)))"
    }

    /// Which version `conflict` is and which word keeps it.
    static func words(_ conflict: Conflict, among all: [Conflict]) -> String {
        guard conflict.isMine else {
            return
                "mine or theirs cannot be told from another tool's copy: keep a version with --keep FILE"
        }
        if ConflictResolution.mine.version(among: all) == .kept(conflict) {
            return "mine: this machine's edit; \(theirs)"
        }
        if ConflictResolution.theirs.version(among: all) == .item {
            return "this machine's edit, one of \(all.count): keep it with --keep FILE; \(theirs)"
        }
        return "this machine's edit: keep it with --keep FILE"
    }

    /// `resolve`'s answer when `word` cannot be told: each version of the item, where it
    /// came from and the file that holds it, for `--keep FILE`.
    static func versions(of id: String, at file: String, _ all: [Conflict]) -> [String] {
        ["  the item: \(Display.escaped(file))"]
            + all.map {
                let whose = $0.isMine ? " (this machine's edit)" : ""
                return
                    "  the version from \(Display.escaped($0.origin))\(whose): \(Display.escaped($0.file))"
            }
    }
}
