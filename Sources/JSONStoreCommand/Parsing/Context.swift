import JSONStore

/// What every command runs with: the store directory, the colour choice and the
/// environment, from the global options (before or after the command) and the
/// environment.
struct Context {
    /// The store directory: `--dir`, else `$JSONSTORE_DIR`, else `data`.
    var directory: String
    var color: ColorChoice = .auto
    var environment: [String: String]

    init(environment: [String: String]) {
        self.environment = environment
        directory = environment["JSONSTORE_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "data"
    }

    /// Takes the global options in `arguments`; a later one wins over an earlier one.
    mutating func apply(_ arguments: Arguments) throws(UsageError) {
        if let directory = arguments.value("--dir") {
            guard !directory.isEmpty else {
                throw UsageError("--dir needs a directory", command: nil)
            }
            self.directory = directory
        }
        if let color = try arguments.choice("--color") {
            self.color = ColorChoice(rawValue: color) ?? .auto
        }
    }

    /// Opens the store.
    func open(options: JSONStore.Options = JSONStore.Options()) throws -> JSONStore {
        try JSONStore(directory: directory, options: options)
    }
}
