import JSONStore

/// A failure to report on stderr, one line per message, with exit status 1.
struct CommandFailure: Error {
    /// Each line's text, already safe to print.
    var messages: [String]

    init(_ messages: String...) {
        self.messages = messages
    }

    init(messages: [String]) {
        self.messages = messages
    }

    /// `no item "ID" in STORE`.
    static func noItem(_ id: String, in store: String) -> String {
        "no item \"\(Display.escaped(id))\" in \(Display.escaped(store))"
    }
}
