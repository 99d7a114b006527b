/// A schema's `pattern` (or a `patternProperties` name), compiled once.
struct SchemaPattern: Sendable {
    let regex: ECMARegex

    var source: String { regex.source }

    init(_ source: String) throws(RegexError) {
        regex = try ECMARegex(source)
    }

    /// Whether `string` matches; `nil` when the search gave up (`ECMARegex.stepLimit`).
    func matches(_ string: String) -> Bool? {
        regex.firstMatch(in: string)
    }
}
