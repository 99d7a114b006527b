import JSONStore

/// A question the footer asks (a new item's id, whether to delete or undo, the field to
/// count by),
/// and the keys that answer it.
struct FooterPrompt: Equatable {
    /// A question in the footer.
    enum Question: Equatable {
        /// The id of the item `n` creates, as typed so far.
        case newID(String)
        /// Whether to delete this item.
        case delete(String)
        /// Whether to delete these marked items.
        case deleteMarked([String])
        /// Whether to undo this item's last change.
        case undo(String)
        /// The field to count by (`f`), as typed so far.
        case countField(String)
    }

    /// What an answer asks for.
    enum Answer: Equatable {
        /// Nothing yet (still typing), or the question was dismissed.
        case none
        case create(id: String)
        case delete(id: String)
        case deleteMarked(ids: [String])
        case undo(id: String)
        case count(field: String)
    }

    /// The question, as typed so far; `nil` once it is answered or dismissed.
    private(set) var question: Question?

    init(asking question: Question) { self.question = question }

    /// A key while a question is asked.
    mutating func answer(_ key: Key) -> Answer {
        switch question {
        case .delete(let id)?:
            question = nil
            return key == .character("y") || key == .character("Y") ? .delete(id: id) : .none
        case .deleteMarked(let ids)?:
            question = nil
            let yes = key == .character("y") || key == .character("Y")
            return yes ? .deleteMarked(ids: ids) : .none
        case .undo(let id)?:
            question = nil
            return key == .character("y") || key == .character("Y") ? .undo(id: id) : .none
        case .newID(let id)?:
            guard let typed = type(key, onto: id, as: Question.newID) else { return .none }
            return .create(id: typed)
        case .countField(let field)?:
            guard let typed = type(key, onto: field, as: Question.countField) else { return .none }
            return .count(field: typed)
        case nil:
            return .none
        }
    }

    /// A key typed into a text question: its text with the key, still asked; the text
    /// on Enter; `nil` with the question gone on Esc.
    private mutating func type(_ key: Key, onto text: String, as ask: (String) -> Question)
        -> String?
    {
        var text = text
        switch key {
        case .escape:
            question = nil
        case .backspace:
            if !text.isEmpty { text.removeLast() }
            question = ask(text)
        case .character(let c):
            text.append(c)
            question = ask(text)
        case .enter:
            question = nil
            return text
        default:
            break
        }
        return nil
    }

    /// The question's line, if one is asked.
    var questionText: String? {
        switch question {
        case .newID(let id)?:
            " new item's id: " + Display.escaped(id) + "▏  Enter create  Esc cancel"
        case .delete(let id)?: " delete \(Display.escaped(id))? y/N"
        case .deleteMarked(let ids)?: " Delete \(ListModel.count(ids.count, "item"))? y/N"
        case .undo(let id)?: " undo the last change of \(Display.escaped(id))? y/N"
        case .countField(let field)?:
            " count by field: " + Display.escaped(field)
                + "▏  Enter count (alone: the sort field)  Esc cancel"
        case nil: nil
        }
    }
}
