import JSONStore

/// One `--where`: a field, an operator and a value, as a person types it.
///
/// `status=todo`, `status!=done`, `priority>=2` (a value that is a JSON number by RFC
/// 8259's grammar compares with numbers, by exact decimal value; any other text, `nan`,
/// `0x10` or `+1` too, with strings, by their UTF-8 bytes), `title~tea` (a substring,
/// case ignored by lower-casing both sides), `tags` (the field is present), `!tags`
/// (absent). A field holding an array matches when any element does (`tags=home`); `!=`
/// matches exactly when `=` does not, items without the field too.
struct Condition: Sendable, Equatable {
    enum Operator: String, Sendable, CaseIterable {
        case equal = "="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case contains = "~"
        case present, absent
    }

    let field: FieldPath
    let op: Operator
    /// The value compared with; empty for presence and absence.
    let value: String
    /// `value` as a number, if it is a JSON number, and in lower case: worked out once,
    /// not for every item.
    private let number: JSONNumber?
    private let needle: String

    /// Parses `FIELD`, `!FIELD` or `FIELD OP VALUE`.
    init(parsing text: String) throws(UsageError) {
        (field, op, value) = try Self.parse(text)
        number = JSONNumber(text: value)
        needle = value.lowercased()
    }

    /// A warning when the condition looks like a mistyped operator (`priority=>2`,
    /// `priority=<2`, `status==done`), with the condition probably meant; `nil` otherwise.
    var nearMiss: String? {
        guard op == .equal, let first = value.unicodeScalars.first else { return nil }
        let meant: String
        switch first {
        case ">": meant = ">="
        case "<": meant = "<="
        case "=": meant = "="
        default: return nil
        }
        let rest = String(value.unicodeScalars.dropFirst())
        let typed = field.text + "=" + value
        return
            "warning: --where '\(Display.escaped(typed))' compares \(Display.escaped(field.text)) with the text '\(Display.escaped(value))'; did you mean \(Display.escaped(field.text + meant + rest))?"
    }

    /// The condition as typed: `status=done`, `tags`, `!tags`, `status="in progress"`.
    var text: String {
        switch op {
        case .present: return field.text
        case .absent: return "!" + field.text
        default: return field.text + op.rawValue + (value.contains(" ") ? "\"\(value)\"" : value)
        }
    }

    static func == (a: Condition, b: Condition) -> Bool {
        a.field == b.field && a.op == b.op && a.value == b.value
    }

    private static func parse(_ text: String) throws(UsageError) -> (FieldPath, Operator, String) {
        let scalars = Array(text.unicodeScalars)
        let operators: Set<Unicode.Scalar> = ["=", "!", "<", ">", "~"]
        let start = scalars.first == "!" ? 1 : 0
        guard let at = scalars[start...].firstIndex(where: operators.contains) else {
            let name = String(String.UnicodeScalarView(scalars[start...]))
            guard !name.isEmpty else { throw Self.error(text, "names no field") }
            return (FieldPath(name), start == 1 ? .absent : .present, "")
        }
        guard start == 0 else { throw Self.error(text, "mixes !FIELD with an operator") }
        let two =
            at + 1 < scalars.count && scalars[at + 1] == "=" && scalars[at] != "="
            && scalars[at] != "~"
        let symbol = String(String.UnicodeScalarView(scalars[at..<(at + (two ? 2 : 1))]))
        guard let op = Operator(rawValue: symbol) else {
            throw Self.error(text, "has no operator =, !=, <, <=, >, >= or ~")
        }
        let name = String(String.UnicodeScalarView(scalars[..<at]))
        guard !name.isEmpty else { throw Self.error(text, "names no field") }
        return (
            FieldPath(name), op,
            String(String.UnicodeScalarView(scalars[(at + symbol.unicodeScalars.count)...]))
        )
    }

    private static func error(_ text: String, _ reason: String) -> UsageError {
        UsageError(
            "--where '\(Display.escaped(text))' \(reason) (FIELD=VALUE, FIELD!=VALUE, FIELD<VALUE, FIELD~TEXT, FIELD, !FIELD)",
            command: "list")
    }

    /// Whether `item` satisfies the condition.
    func matches(_ item: Item) -> Bool {
        let member = field.value(in: item)
        switch op {
        case .present: return member != nil
        case .absent: return member == nil
        case .equal: return any(member, equal)
        case .notEqual: return !any(member, equal)
        case .contains: return any(member) { Self.text($0)?.lowercased().contains(needle) == true }
        case .less: return any(member) { order($0).map { $0 < 0 } ?? false }
        case .lessOrEqual: return any(member) { order($0).map { $0 <= 0 } ?? false }
        case .greater: return any(member) { order($0).map { $0 > 0 } ?? false }
        case .greaterOrEqual: return any(member) { order($0).map { $0 >= 0 } ?? false }
        }
    }

    /// Whether `test` holds for `member` or, for an array, for any of its elements;
    /// false when there is no member.
    private func any(_ member: JSONValue?, _ test: (JSONValue) -> Bool) -> Bool {
        guard let member else { return false }
        if case .array(let elements) = member { return elements.contains { any($0, test) } }
        return test(member)
    }

    /// Equality as typed: a string by its bytes, a number by exact value, a Boolean or
    /// null by its literal.
    private func equal(_ member: JSONValue) -> Bool {
        switch member {
        case .string(let s): return UTF8Key.equal(s, value)
        case .number(let n): return number.map { JSONNumber.equalValues(n, $0) } ?? false
        case .bool(let b): return String(b) == value
        case .null: return value == "null"
        default: return false
        }
    }

    /// The member against the typed value: a number typed compares with numbers, by exact
    /// decimal value; other text with strings, by bytes. `nil` when they cannot be
    /// compared, so `priority>2` never matches `"priority": "high"`.
    private func order(_ member: JSONValue) -> Int? {
        switch member {
        case .number(let n):
            guard let x = number else { return nil }
            return JSONNumber.compareValues(n, x)
        case .string(let s) where number == nil: return UTF8Key.compare(s, value)
        default: return nil
        }
    }

    /// The text a substring is looked for in: strings, numbers and Booleans.
    private static func text(_ member: JSONValue) -> String? {
        switch member {
        case .string(let s): s
        case .number(let n): n.text
        case .bool(let b): String(b)
        default: nil
        }
    }
}
