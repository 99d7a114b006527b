import JSONStore

/// The footer's message and question: a notice until the next key (a field no item has,
/// an edit that failed), or a question it asks (a new item's id, whether to delete).
struct FooterPrompt: Equatable {
    /// A question in the footer.
    enum Question: Equatable {
        /// The id of the item `n` creates, as typed so far.
        case newID(String)
        /// Whether to delete this item.
        case delete(String)
    }

    /// What an answer asks for.
    enum Answer: Equatable {
        /// Nothing yet (still typing), or the question was dismissed.
        case none
        case create(id: String)
        case delete(id: String)
    }

    private(set) var notice: String?
    private(set) var question: Question?

    mutating func tell(_ notice: String) { self.notice = notice }

    /// A key came: the notice has been seen.
    mutating func dismissNotice() { notice = nil }

    mutating func ask(_ question: Question) { self.question = question }

    /// A key while a question is asked.
    mutating func answer(_ key: Key) -> Answer {
        switch question {
        case .delete(let id)?:
            question = nil
            return key == .character("y") || key == .character("Y") ? .delete(id: id) : .none
        case .newID(var id)?:
            switch key {
            case .escape:
                question = nil
            case .backspace:
                if !id.isEmpty { id.removeLast() }
                question = .newID(id)
            case .character(let c):
                id.append(c)
                question = .newID(id)
            case .enter:
                question = nil
                return .create(id: id)
            default:
                break
            }
            return .none
        case nil:
            return .none
        }
    }

    /// The question's line, if one is asked.
    var questionText: String? {
        switch question {
        case .newID(let id)?:
            " new item's id: " + Display.escaped(id) + "▏  Enter create  Esc cancel"
        case .delete(let id)?: " delete \(Display.escaped(id))? y/N"
        case nil: nil
        }
    }
}
