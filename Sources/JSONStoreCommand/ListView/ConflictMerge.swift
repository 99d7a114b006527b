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
        guard let (folder, file) = CopyEdit.privateCopy(named: "\(id)-merge.json", original)
        else { return "could not make a document to edit in a temporary directory" }
        let kept = "your text is kept in \(file.path)"
        switch runEditor(file.path) {
        case .failure(let error): return "could not start the editor: \(error)"
        case .success(let status) where status != 0:
            return "the editor exited with status \(status); \(kept)"
        case .success: break
        }
        guard let edited = try? [UInt8](Data(contentsOf: file)) else {
            return "could not read the document back from \(file.path)"
        }
        do {
            guard case .object = try JSONReader().read(edited) else {
                return "not merged: the document is not a JSON object; \(kept)"
            }
        } catch {
            let hint =
                differing.isEmpty ? "" : " (remove the conflict markers, keeping one value each)"
            return
                "not merged: \(error.line):\(error.column): \(Display.escaped(error.reason))\(hint); \(kept)"
        }
        do {
            let ended = try store.resolve(id, keeping: .merged(edited))
            try? FileManager.default.removeItem(at: folder)
            return "\(shown): merged; \(ListModel.count(ended.count, "kept version")) removed"
        } catch {
            return "not merged: \(error); \(kept)"
        }
    }
}
