/// Parses an ECMA-262 pattern as JSON Schema reads `pattern` (the `u` flag's grammar, no
/// other flag): alternatives, groups (capturing, named, non-capturing), lookahead and
/// lookbehind, greedy and lazy quantifiers, classes, escapes (`\d \w \s`, `\uHHHH`,
/// `\u{…}`, `\cX`, `\p{…}`), backreferences. An error says what and at which character.
struct RegexParser {
    let scalars: [UInt32]
    var i = 0
    private var groupCount = 0
    private var groupNames: [String: Int] = [:]
    private var depth = 0

    /// How deep groups may nest.
    static let depthLimit = 256

    init(_ source: String) {
        scalars = source.unicodeScalars.map(\.value)
    }

    /// The pattern's tree and its number of capturing groups.
    mutating func parse() throws(RegexError) -> (RegexNode, groups: Int) {
        var node = try alternation()
        if i < scalars.count { throw error("unbalanced )") }
        node = try resolveNames(node)
        return (node, groupCount)
    }

    func error(_ reason: String) -> RegexError {
        RegexError(reason: "\(reason) at character \(i + 1)")
    }

    var current: UInt32? { i < scalars.count ? scalars[i] : nil }

    mutating func eat(_ character: Character) -> Bool {
        guard current == character.unicodeScalars.first!.value else { return false }
        i += 1
        return true
    }

    private mutating func alternation() throws(RegexError) -> RegexNode {
        var branches = [try sequence()]
        while eat("|") { branches.append(try sequence()) }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func sequence() throws(RegexError) -> RegexNode {
        var items: [RegexNode] = []
        while let c = current, c != ascii("|"), c != ascii(")") {
            items.append(try term())
        }
        return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .sequence(items))
    }

    private mutating func term() throws(RegexError) -> RegexNode {
        let start = i
        let atom: RegexNode
        var quantifiable = true
        switch current! {
        case ascii("^"):
            i += 1
            atom = .assertion(.start)
            quantifiable = false
        case ascii("$"):
            i += 1
            atom = .assertion(.end)
            quantifiable = false
        case ascii("("): atom = try group(&quantifiable)
        case ascii("."):
            i += 1
            atom = .set(.dot)
        case ascii("["): atom = .set(try characterClass())
        case ascii("\\"):
            if let assertion = wordBoundary() {
                atom = .assertion(assertion)
                quantifiable = false
            } else {
                atom = try atomEscape()
            }
        case ascii("*"), ascii("+"), ascii("?"), ascii("{"):
            throw error("nothing to repeat")
        case ascii("]"), ascii("}"): throw error("a lone \(Character(Unicode.Scalar(current!)!))")
        default:
            atom = .scalar(current!)
            i += 1
        }
        guard let (min, max) = try quantifier() else { return atom }
        guard quantifiable else {
            i = start
            throw error("nothing to repeat")
        }
        let greedy = !eat("?")
        return .repetition(atom, min: min, max: max, greedy: greedy)
    }

    private mutating func wordBoundary() -> RegexAssertion? {
        guard i + 1 < scalars.count else { return nil }
        switch scalars[i + 1] {
        case ascii("b"):
            i += 2
            return .wordBoundary
        case ascii("B"):
            i += 2
            return .notWordBoundary
        default: return nil
        }
    }

    private mutating func group(_ quantifiable: inout Bool) throws(RegexError) -> RegexNode {
        i += 1
        depth += 1
        defer { depth -= 1 }
        if depth > Self.depthLimit { throw error("groups nested over \(Self.depthLimit) deep") }
        var capture: Int?
        var look: (ahead: Bool, negated: Bool)?
        if eat("?") {
            if eat(":") {
            } else if eat("=") {
                look = (true, false)
            } else if eat("!") {
                look = (true, true)
            } else if eat("<") {
                if eat("=") {
                    look = (false, false)
                } else if eat("!") {
                    look = (false, true)
                } else {
                    let name = try groupName()
                    groupCount += 1
                    guard groupNames.updateValue(groupCount, forKey: name) == nil else {
                        throw error("the group name \(name) is used twice")
                    }
                    capture = groupCount
                }
            } else {
                throw error("an unknown group kind (?")
            }
        } else {
            groupCount += 1
            capture = groupCount
        }
        let inner = try alternation()
        guard eat(")") else { throw error("a group is not closed") }
        if let look {
            // Lookaheads may be repeated in ECMA-262's annex B only; lookbehinds never.
            quantifiable = false
            return .look(inner, ahead: look.ahead, negated: look.negated)
        }
        return .group(inner, capture: capture)
    }

    mutating func groupName() throws(RegexError) -> String {
        var name = ""
        while let c = current, c != ascii(">") {
            guard let scalar = Unicode.Scalar(c),
                scalar.properties.isIDContinue || scalar == "$" || scalar == "_"
            else { throw error("a group name must be an identifier") }
            name.unicodeScalars.append(scalar)
            i += 1
        }
        guard eat(">"), let first = name.unicodeScalars.first,
            first.properties.isIDStart || first == "$" || first == "_"
        else { throw error("a group name must be an identifier") }
        return name
    }

    /// `*`, `+`, `?` or `{n}`, `{n,}`, `{n,m}`; `nil` when none follows.
    private mutating func quantifier() throws(RegexError) -> (Int, Int?)? {
        guard let c = current else { return nil }
        switch c {
        case ascii("*"):
            i += 1
            return (0, nil)
        case ascii("+"):
            i += 1
            return (1, nil)
        case ascii("?"):
            i += 1
            return (0, 1)
        case ascii("{"):
            let start = i
            i += 1
            guard let min = number() else {
                throw error("a { that begins no {n,m} (escape it as \\{)")
            }
            var max: Int? = min
            if eat(",") { max = number() }
            guard eat("}") else {
                i = start
                throw error("a {n,m} is not closed")
            }
            if let max, max < min { throw error("{\(min),\(max)}: the numbers are out of order") }
            return (min, max)
        default: return nil
        }
    }

    /// The decimal number here, if any (held below 2^30).
    mutating func number() -> Int? {
        var value: Int?
        while let c = current, c >= ascii("0"), c <= ascii("9") {
            value = min((value ?? 0) * 10 + Int(c - ascii("0")), 1 << 30)
            i += 1
        }
        return value
    }

    func ascii(_ c: Character) -> UInt32 { c.unicodeScalars.first!.value }

    // MARK: Names

    private func resolveNames(_ node: RegexNode) throws(RegexError) -> RegexNode {
        switch node {
        case .namedBackreference(let name):
            guard let number = groupNames[name] else {
                throw RegexError(reason: "\\k<\(name)> names no group")
            }
            return .backreference(number)
        case .backreference(let number):
            guard number <= groupCount else {
                throw RegexError(reason: "\\\(number) names no group")
            }
            return node
        case .sequence(let items):
            var resolved: [RegexNode] = []
            for item in items { resolved.append(try resolveNames(item)) }
            return .sequence(resolved)
        case .alternation(let items):
            var resolved: [RegexNode] = []
            for item in items { resolved.append(try resolveNames(item)) }
            return .alternation(resolved)
        case .group(let inner, let capture):
            return .group(try resolveNames(inner), capture: capture)
        case .repetition(let inner, let min, let max, let greedy):
            return .repetition(try resolveNames(inner), min: min, max: max, greedy: greedy)
        case .look(let inner, let ahead, let negated):
            return .look(try resolveNames(inner), ahead: ahead, negated: negated)
        case .empty, .scalar, .set, .assertion: return node
        }
    }
}

/// Why a pattern does not compile.
struct RegexError: Error, Sendable {
    var reason: String
}
