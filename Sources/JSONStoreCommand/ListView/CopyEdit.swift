import FoundationEssentials
import JSONStore

/// `e` on a store whose items have no files (etcd): the item's value in a temporary copy,
/// opened in the editor and put back with compare-and-swap on the etag it started from.
///
/// If the item changed meanwhile, the editor opens again with the user's copy and, beside
/// it, the value now in the store (`ID.now-in-the-store.json`); the user's copy is put back
/// against that one's etag once it is saved again. Nothing is overwritten silently, and
/// nothing the user wrote is lost: a copy that does not parse stays in its temporary file,
/// which the notice names.
struct CopyEdit {
    let store: JSONStore
    let id: String
    /// A new item's template to start from, the item absent until it is saved (`n` on a
    /// store with a schema); `nil` to edit the item there.
    var template: JSONObject? = nil
    /// Runs the editor on files, with the terminal handed over to it.
    let runEditor: (_ paths: [String]) -> Result<Int32, Errno>

    /// Edits the item; returns what the footer should say, if anything.
    func run() -> String? {
        let shown = Display.escaped(id)
        let stored: (bytes: [UInt8], etag: String)?
        do {
            stored =
                try template.map { (JSONWriter.pretty(.object($0)), "") }
                ?? store._storedValue(of: id)
        } catch {
            return "\(error)"
        }
        guard let stored else { return "\(shown) is not in the store any more" }
        guard let (folder, mine) = Self.privateCopy(named: ItemID.fileName(id), stored.bytes)
        else { return "could not make a copy to edit in a temporary directory" }
        let theirs = folder.appendingPathComponent(id + ".now-in-the-store.json")
        var expected = template == nil ? ItemExpectation.etag(stored.etag) : .absent
        var paths = [mine.path]
        var last = stored.bytes
        while true {
            switch runEditor(paths) {
            case .failure(let error): return "could not start the editor: \(error)"
            case .success(let status) where status != 0:
                return
                    "the editor exited with status \(status)\nyour copy is kept in \(Display.escaped(mine.path))"
            case .success: break
            }
            guard let edited = try? [UInt8](Data(contentsOf: mine)) else {
                return "could not read your copy back from \(mine.path)"
            }
            if edited == last {
                guard paths.count == 2 else {
                    try? FileManager.default.removeItem(at: folder)
                    // Left as it was: nothing to write.
                    return template == nil
                        ? nil : "\(shown) not created: the template was left as it was"
                }
                // Shown the store's value and not saved again: keeping that is the choice.
                return
                    "\(shown) not saved: it changed meanwhile and your copy was not saved again\nyours is kept in \(Display.escaped(mine.path))"
            }
            last = edited
            let (parsed, problem) = Self.object(edited)
            guard let object = parsed else {
                return
                    "\(shown) not saved: \(problem)\nyour copy is kept in \(Display.escaped(mine.path))"
            }
            do {
                try store.put(id, object, expecting: expected)
                try? FileManager.default.removeItem(at: folder)
                return nil
            } catch  where error.code == .changed {
                // Changed meanwhile: both side by side, and save yours again to put it.
                let now = try? store._storedValue(of: id)
                expected = now.map { .etag($0.etag) } ?? .absent
                _ = FileManager.default.createFile(
                    atPath: theirs.path, contents: Data(now?.bytes ?? Array("(deleted)\n".utf8)),
                    attributes: [.posixPermissions: 0o600])
                paths = [mine.path, theirs.path]
            } catch {
                return
                    "\(shown) not saved: \(error)\nyour copy is kept in \(Display.escaped(mine.path))"
            }
        }
    }

    /// A new folder of the temporary directory holding `bytes` as the file `name`, both
    /// readable by this user alone (what is edited may hold what others should not see).
    static func privateCopy(named name: String, _ bytes: [UInt8]) -> (folder: URL, file: URL)? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jsonstore-edit-\(UInt32.random(in: .min ... .max))")
        let file = folder.appendingPathComponent(name)
        guard
            (try? FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])) != nil,
            FileManager.default.createFile(
                atPath: file.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
        else { return nil }
        return (folder, file)
    }

    /// A document edited in a private copy (`privateCopy`): its folder, its file, what
    /// the editor left in it, and the notice's words for where the text is kept (a line of
    /// the notice's own, so the path is drawn whole).
    struct EditedCopy {
        let folder: URL
        let file: URL
        let edited: [UInt8]
        var kept: String { "your text is kept in \(Display.escaped(file.path))" }
    }

    /// `bytes` as the private copy `name`, opened with `runEditor` and read back; or what
    /// the footer should say when that could not be done.
    static func edit(
        named name: String, _ bytes: [UInt8], runEditor: (_ path: String) -> Result<Int32, Errno>
    ) -> Result<EditedCopy, ListModel.Refusal> {
        guard let (folder, file) = privateCopy(named: name, bytes) else {
            return .failure(
                .init(message: "could not make a document to edit in a temporary directory"))
        }
        switch runEditor(file.path) {
        case .failure(let error):
            return .failure(.init(message: "could not start the editor: \(error)"))
        case .success(let status) where status != 0:
            return .failure(
                .init(
                    message:
                        "the editor exited with status \(status)\nyour text is kept in \(Display.escaped(file.path))"
                ))
        case .success: break
        }
        guard let edited = try? [UInt8](Data(contentsOf: file)) else {
            return .failure(.init(message: "could not read the document back from \(file.path)"))
        }
        return .success(EditedCopy(folder: folder, file: file, edited: edited))
    }

    /// `bytes` as an item's object, or why not (line and column where it applies).
    static func object(_ bytes: [UInt8]) -> (JSONObject?, String) {
        do {
            guard case .object(let object) = try JSONReader().read(bytes) else {
                return (nil, "an item must be a JSON object")
            }
            return (object, "")
        } catch {
            return (nil, "\(error.line):\(error.column): \(Display.escaped(error.reason))")
        }
    }
}
