/// A parsed ECMA-262 pattern, before it is compiled to a `RegexProgram`.
indirect enum RegexNode: Sendable {
    case empty
    case scalar(UInt32)
    case set(RegexSet)
    case sequence([RegexNode])
    case alternation([RegexNode])
    /// A group; `capture` is its number when it captures (1 for the first).
    case group(RegexNode, capture: Int?)
    case repetition(RegexNode, min: Int, max: Int?, greedy: Bool)
    case assertion(RegexAssertion)
    case look(RegexNode, ahead: Bool, negated: Bool)
    /// A backreference to a group by number, or by name until names are resolved.
    case backreference(Int)
    case namedBackreference(String)
}

/// What `^`, `$`, `\b` and `\B` assert of the place between two characters.
enum RegexAssertion: Sendable {
    case start, end, wordBoundary, notWordBoundary
}
