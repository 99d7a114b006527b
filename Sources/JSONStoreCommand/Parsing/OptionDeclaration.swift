/// One option of a command: its names, the value it takes (if any), and its help.
struct OptionDeclaration: Sendable {
    /// Every spelling, the canonical one first (`--output`, `-o`).
    var names: [String]
    /// The value's name in help (`FORMAT`), or `nil` for a flag.
    var value: String?
    /// One line of help.
    var help: String
    /// The values it accepts, when they are a fixed set (offered by completion).
    var choices: [String] = []
    /// Whether it may be given more than once, each value kept.
    var repeats = false

    /// A flag: present or not.
    static func flag(_ names: String..., help: String) -> OptionDeclaration {
        OptionDeclaration(names: names, value: nil, help: help)
    }

    /// An option that takes a value.
    static func option(
        _ names: String..., value: String, help: String, choices: [String] = [],
        repeats: Bool = false
    ) -> OptionDeclaration {
        OptionDeclaration(
            names: names, value: value, help: help, choices: choices, repeats: repeats)
    }

    /// The canonical name, the one the parser files values under.
    var name: String { names[0] }

    /// `-o FORMAT` / `--follow`: the shortest spelling with its value, for usage lines.
    var synopsis: String {
        let shortest = names.min { $0.count < $1.count } ?? name
        return value.map { "\(shortest) \($0)" } ?? shortest
    }

    /// `-o, --output FORMAT`: every spelling, for the options list.
    var spellings: String {
        let sorted = names.sorted { $0.count < $1.count }.joined(separator: ", ")
        return value.map { "\(sorted) \($0)" } ?? sorted
    }
}

extension OptionDeclaration {
    /// `--if-match ETAG`, for the commands that write an item.
    static let ifMatch = OptionDeclaration.option(
        "--if-match", value: "ETAG",
        help: "write only if the item's etag is still ETAG (from get --etag)")
}
