/// Whether to use colour: `--color=always|never|auto`; `auto` means a terminal, no
/// `NO_COLOR`, and a `TERM` other than `dumb`.
enum ColorChoice: String, CaseIterable {
    case auto, always, never

    func enabled(environment: [String: String], terminal: Bool) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto:
            terminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        }
    }
}
