import JSONStore

extension ListModel {
    /// What the app is asked to do: nothing, quit, observe the store again in the order
    /// `sort` now says, open a file in the editor, create an item and open it, or delete.
    package enum Action: Equatable {
        case none, quit, sort
        case edit(file: String)
        case create(id: String, template: JSONObject)
        case delete(id: String)
        /// Delete these items, in one batch.
        case deleteMany(ids: [String])
        /// Open these items in the editor as one document, and apply it as one batch.
        case editMany(ids: [String])
        /// Undo the item's last change (`u`, after y/N).
        case undo(id: String)
        /// Put this text on the clipboard (OSC 52).
        case copy(String)
        /// Count the values of this field, live (`showCounts`), until `stopCounts`.
        case observeCounts(field: String)
        case stopCounts
        /// End the item's conflicts, keeping this.
        case resolve(id: String, keeping: ConflictResolution)
        /// Open the item and this version of it in the editor, to merge by hand.
        case mergeConflict(id: String, with: Conflict)
    }
}
