import JSONStore

/// Editing from the list view, as k9s does: `e` opens the selected row's file in the
/// editor, `n` asks for an id and creates an item from the selected item's members, `d`
/// asks before deleting. The model only asks; the app edits, writes and deletes.
extension ListModel {
    /// A question in the footer.
    enum Prompt: Equatable {
        /// The id of the item `n` creates, as typed so far.
        case newID(String)
        /// Whether to delete this item.
        case delete(String)
    }

    /// `e`: the selected row's file, valid or not, for the editor.
    mutating func editSelected() -> Action {
        guard let (name, _) = selectedFile else { return .none }
        return .edit(file: name)
    }

    /// A key while the footer asks something.
    mutating func handlePrompt(_ key: Key) -> Action {
        switch prompt {
        case .delete(let id)?:
            prompt = nil
            return key == .character("y") || key == .character("Y") ? .delete(id: id) : .none
        case .newID(var id)?:
            switch key {
            case .escape:
                prompt = nil
            case .backspace:
                if !id.isEmpty { id.removeLast() }
                prompt = .newID(id)
            case .character(let c):
                id.append(c)
                prompt = .newID(id)
            case .enter:
                prompt = nil
                return newItem(id)
            default:
                break
            }
            return .none
        case nil:
            return .none
        }
    }

    /// The item `n` creates: a valid, unused id, and the selected item's members with
    /// empty values of the same types (or a title alone when there is no item).
    private mutating func newItem(_ id: String) -> Action {
        do {
            try ItemID.validate(id)
        } catch {
            notice = error.description
            return .none
        }
        guard results.index(ofID: id) == nil else {
            notice = "\"\(Display.escaped(id))\" exists already"
            return .none
        }
        return .create(id: id, template: Self.template(from: selectedItem))
    }

    /// `item`'s members without the id, each emptied: "" for a string, 0, false, [], {}.
    static func template(from item: Item?) -> JSONObject {
        guard let item else { return ["title": ""] }
        var template = JSONObject()
        for member in item.members where member.key != "id" {
            switch member.value {
            case .string: template[member.key] = ""
            case .number: template[member.key] = 0
            case .bool: template[member.key] = false
            case .array: template[member.key] = []
            case .object: template[member.key] = .object([:])
            case .null: template[member.key] = .null
            }
        }
        return template
    }

    /// The footer's question, if it asks one.
    var promptText: String? {
        switch prompt {
        case .newID(let id)?:
            " new item's id: " + Display.escaped(id) + "▏  Enter create  Esc cancel"
        case .delete(let id)?: " delete \(Display.escaped(id))? y/N"
        case nil: nil
        }
    }
}
