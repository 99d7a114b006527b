import JSONStore

/// What the list view's app does for an item's conflicts: keep one version, or merge both
/// by hand in the editor.
extension ListViewApp {
    /// Ends the conflicts of `id`, keeping `choice`; on a mirrored directory the mirror
    /// sends the result to every machine.
    func resolve(_ id: String, _ choice: ConflictResolution) {
        do {
            let ended = try store.resolve(id, keeping: choice)
            let what = choice == .item ? "this item" : "that version"
            model.tell(
                "\(Display.escaped(id)): kept \(what); \(ListModel.count(ended.count, "kept version")) removed"
            )
        } catch {
            model.tell("\(error)")
        }
    }

    /// Opens `id` and `version` merged member by member in the editor (`ConflictMerge`).
    func merge(_ id: String, _ version: Conflict) {
        let command = ExternalEditor.command(environment: environment)
        let merge = ConflictMerge(store: store, id: id, version: version) { path in
            self.terminal.suspend()
            defer { self.terminal.resume() }
            return ExternalEditor.run(command, on: path)
        }
        model.tell(merge.run())
        resized()
    }
}
