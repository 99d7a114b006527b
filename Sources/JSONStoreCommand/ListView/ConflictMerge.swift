import FoundationEssentials
import JSONStore

/// `e` on an item's conflict: the item and the version shown, merged member by member,
/// the members that differ wrapped in git's conflict markers as `jsonstore merge-driver`
/// writes them, opened in the editor. Saved as a valid item (the markers gone), it becomes
/// the item and every version kept of it is removed; otherwise nothing changes and the
/// text is kept where the notice says.
struct ConflictMerge {
    let store: JSONStore
    let id: String
    let version: Conflict
    /// Runs the editor on a file, with the terminal handed over to it.
    let runEditor: (_ path: String) -> Result<Int32, Errno>

    /// Merges; returns what the footer should say.
    func run() -> String {
        let shown = Display.escaped(id)
        let mine: JSONObject
        do {
            var members = try store.item(id)?.members ?? JSONObject()
            members["id"] = nil
            mine = members
        } catch {
            return "\(error)"
        }
        guard var theirs = version.object else {
            return
                "the version kept in \(Display.escaped(version.name)) is not a JSON object: keep one with m, or edit that file"
        }
        theirs["id"] = nil
        let (merged, differing) = ItemMerge.merge(base: JSONObject(), ours: mine, theirs: theirs)
        let original =
            differing.isEmpty
            ? JSONWriter.pretty(.object(merged))
            : Array(
                ItemMerge.marked(
                    merged, theirs: theirs, conflicts: differing, ours: "this item",
                    other: "the version from \(version.origin)"
                ).utf8)
        let copy: CopyEdit.EditedCopy
        switch CopyEdit.edit(named: "\(id)-merge.json", original, runEditor: runEditor) {
        case .failure(let refusal): return refusal.message
        case .success(let edited): copy = edited
        }
        let (folder, edited, kept) = (copy.folder, copy.edited, copy.kept)
        let (object, why) = CopyEdit.object(edited)
        guard object != nil else {
            let hint =
                differing.isEmpty ? "" : " (remove the conflict markers, keeping one value each)"
            return "not merged: \(why)\(hint)\n\(kept)"
        }
        do {
            let ended = try store.resolve(id, keeping: .merged(edited))
            try? FileManager.default.removeItem(at: folder)
            return "\(shown): merged; \(ListModel.count(ended.count, "kept version")) removed"
        } catch {
            return "not merged: \(error)\n\(kept)"
        }
    }
}
