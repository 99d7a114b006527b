import FoundationEssentials
import JSONStore

/// `e` with rows marked: the marked items as one document, a JSON object keyed by id
/// whose values are the items' members, opened in the editor and applied as one batch.
///
/// Each item keeps its etag from when the document was made: an item changed meanwhile
/// refuses the whole batch, so nothing is overwritten silently. A document that does not
/// parse, or is not an object of objects keyed by valid ids, is refused with the line and
/// column, and kept where the notice says. An id taken out of the document is left as it
/// is (never deleted); an id added is created.
struct BulkEdit {
    let store: JSONStore
    let ids: [String]
    /// Runs the editor on a file, with the terminal handed over to it.
    let runEditor: (_ path: String) -> Result<Int32, Errno>

    /// Edits the items; returns what the footer should say.
    func run() -> String {
        var document = JSONObject()
        var etags: [String: String] = [:]
        do {
            for id in ids {
                guard let item = try store.item(id) else { continue }
                var members = item.members
                members["id"] = nil
                document[id] = .object(members)
                etags[id] = item.etag
            }
        } catch {
            return "\(error)"
        }
        guard !document.isEmpty else { return "the marked items are not in the store any more" }
        let original = JSONWriter.pretty(.object(document))
        let copy: CopyEdit.EditedCopy
        switch CopyEdit.edit(named: Self.documentName, original, runEditor: runEditor) {
        case .failure(let refusal): return refusal.message
        case .success(let edited): copy = edited
        }
        let (folder, edited, kept) = (copy.folder, copy.edited, copy.kept)
        guard edited != original else {
            try? FileManager.default.removeItem(at: folder)
            let one = document.count == 1
            return
                "\(ListModel.count(document.count, "item")) left as \(one ? "it was" : "they were")"
        }
        let items: [(String, JSONObject)]
        switch Self.items(edited) {
        case .failure(let refusal): return "not applied: \(refusal.message)\n\(kept)"
        case .success(let parsed): items = parsed
        }
        do {
            try store.write { tx in
                for (id, object) in items {
                    try tx.expect(id, etags[id].map { .etag($0) } ?? .absent)
                    try tx.put(id, object)
                }
            }
        } catch let error as StoreError where error.code == .changed {
            return "not applied: \(Display.escaped(error.message))\n\(kept)"
        } catch {
            return "not applied: \(error)\n\(kept)"
        }
        try? FileManager.default.removeItem(at: folder)
        return "\(ListModel.count(items.count, "item")) saved in one batch"
    }

    /// The name of the document the editor is given.
    static let documentName = "marked-items.json"

    /// The items of an edited document, or why it is refused (where in the document:
    /// `marked-items.json:4:5`).
    static func items(_ bytes: [UInt8]) -> Result<[(String, JSONObject)], ListModel.Refusal> {
        let document: JSONValue
        do {
            document = try JSONReader().read(bytes)
        } catch {
            return .failure(
                ListModel.Refusal(
                    message:
                        "\(documentName):\(error.line):\(error.column): \(Display.escaped(error.reason))"
                ))
        }
        guard case .object(let object) = document else {
            return .failure(ListModel.Refusal(message: "the document must be a JSON object by id"))
        }
        var items: [(String, JSONObject)] = []
        for member in object {
            do {
                try ItemID.validate(member.key)
            } catch {
                return .failure(ListModel.Refusal(message: error.description))
            }
            guard case .object(let members) = member.value else {
                return .failure(
                    ListModel.Refusal(
                        message: "\(Display.escaped(member.key)): an item must be a JSON object"))
            }
            items.append((member.key, members))
        }
        return .success(items)
    }
}
