/// A mistake in how the command was called: exit status 64 with a one-line hint.
struct UsageError: Error, Equatable {
    let message: String
    /// The command whose help to point at, if any.
    var command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
