import FoundationEssentials
import Glibc
import JSONStore

/// What the list view's app does when the model asks: edit a file or the marked items,
/// create an item, delete one or the marked ones, copy ids.
extension ListViewApp {
    /// Opens the file `name` of the store in the editor, the terminal restored around it
    /// as on exit. The main queue waits meanwhile: changes merge in the store's pipeline
    /// and arrive as one update afterwards (the save among them).
    func edit(_ name: String) {
        let command = ExternalEditor.command(environment: environment)
        if store._isRemote || store.schemaState().schema?.isEnforced == true {
            // No file to open, or a schema to obey: a copy, put back with the etag it
            // started from once it obeys (a refusal says why and keeps the copy).
            let id = String(name.dropLast(5))
            let edit = CopyEdit(store: store, id: id) { paths in
                self.terminal.suspend()
                defer { self.terminal.resume() }
                return ExternalEditor.run(command, on: paths)
            }
            if let notice = edit.run() { model.tell(notice) }
            return resized()
        }
        terminal.suspend()
        let outcome = ExternalEditor.run(command, on: store.path + "/" + name)
        terminal.resume()
        switch outcome {
        case .failure(let error):
            model.tell("could not start the editor (\(Display.escaped(command))): \(error)")
        case .success(let status) where status != 0:
            model.tell("the editor (\(Display.escaped(command))) exited with status \(status)")
        case .success:
            break
        }
        resized()
    }

    /// Writes the new item `id` from `template` and opens it in the editor; if the
    /// template comes back unchanged, the item is removed again, so `n` then quitting the
    /// editor leaves nothing behind.
    func create(_ id: String, _ template: JSONObject) {
        let name = id + ".json"
        if store.schemaState().schema?.isEnforced == true {
            // The template may not obey the schema yet: it is written once it does.
            let command = ExternalEditor.command(environment: environment)
            let edit = CopyEdit(store: store, id: id, template: template) { paths in
                self.terminal.suspend()
                defer { self.terminal.resume() }
                return ExternalEditor.run(command, on: paths)
            }
            if let notice = edit.run() {
                if (try? store._storedValue(of: id)) == nil { model.notCreated() }
                model.tell(notice)
            }
            return resized()
        }
        let written: [UInt8]?
        do {
            try store.put(id, template)
            written = try store._fileBytes(named: name)
        } catch {
            model.notCreated()
            model.tell("\(error)")
            return requestRender()
        }
        edit(name)
        if let written, (try? store._fileBytes(named: name)) == written {
            _ = try? store.delete(id)
            model.notCreated()
            model.tell("\(Display.escaped(id)) not created: the template was left as it was")
            requestRender()
        }
    }

    /// Deletes the item `id`, after the footer's y/N.
    func delete(_ id: String) {
        do {
            if try !store.delete(id) { model.tell(CommandFailure.noItem(id, in: store.path)) }
        } catch {
            model.tell("\(error)")
        }
    }

    /// Deletes the marked items `ids` in one batch, after the footer's y/N.
    func delete(_ ids: [String]) {
        do {
            let deleted = try store.write { tx in try ids.filter { try tx.delete($0) }.count }
            model.tell("deleted \(ListModel.count(deleted, "item")) in one batch")
        } catch {
            model.tell("nothing deleted: \(error)")
        }
    }

    /// Undoes the item `id`'s last change, after the footer's y/N: refused, with the
    /// members that changed since, when the undo's guard fails.
    func undo(_ id: String) {
        do {
            let last = try store.history(of: id, limit: 1).first
            try store.undo(id, revision: last?.revision)
            let what = last.map { " (revision \($0.revision), \(HistoryWords().source($0)))" } ?? ""
            model.tell("undid the last change of \(Display.escaped(id))\(what)")
        } catch {
            model.undoRefused(error.message)
        }
    }

    /// Opens the marked items `ids` in the editor as one document, applied as one batch.
    func edit(_ ids: [String]) {
        let command = ExternalEditor.command(environment: environment)
        let edit = BulkEdit(store: store, ids: ids) { path in
            self.terminal.suspend()
            defer { self.terminal.resume() }
            return ExternalEditor.run(command, on: path)
        }
        model.tell(edit.run())
        resized()
    }

    /// Puts `text` on the clipboard through OSC 52, which the terminal (or tmux with
    /// `set-clipboard on`) takes where it allows it.
    func copy(_ text: String) {
        let encoded = Data(text.utf8).base64EncodedString()
        Output.write(fd: STDOUT_FILENO, "\u{1B}]52;c;\(encoded)\u{07}")
        let lines = text.split(separator: "\n")
        let what = lines.count == 1 ? Display.escaped(String(lines[0])) : "\(lines.count) ids"
        model.tell("copied \(what) to the clipboard (OSC 52, where the terminal allows it)")
    }
}
