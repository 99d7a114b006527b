import JSONStore

/// What `n` creates, as k9s does: an item with a valid, unused id, from the selected
/// item's members emptied. The model only asks; the app writes and opens the editor.
extension ListModel {
    /// Why the footer refuses what was typed.
    struct Refusal: Error, Equatable {
        let message: String
    }

    /// The item `n` creates as `id`: a valid id no item has, and the selected item's
    /// members with empty values of the same types (a title alone when there is no item).
    static func newItem(_ id: String, in results: Results<Item>, from selected: Item?)
        -> Result<Action, Refusal>
    {
        do {
            try ItemID.validate(id)
        } catch {
            return .failure(Refusal(message: error.description))
        }
        guard results.index(ofID: id) == nil else {
            return .failure(Refusal(message: "\"\(Display.escaped(id))\" exists already"))
        }
        return .success(.create(id: id, template: template(from: selected)))
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
}
