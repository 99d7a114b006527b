import JSONStore

/// How the command words schema violations: a line each, as a compiler's
/// (`data/tea.json:4:15: /priority: 9 is greater than the maximum 5`), or as JSON members
/// for programs.
enum SchemaWords {
    /// `FILE:LINE:COLUMN: /path: message`, with the parts known, safe to print; with
    /// `keyword`, the keyword's place follows (`(maximum at /properties/priority/maximum)`).
    static func line(_ violation: SchemaViolation, file: String, keyword: Bool = false) -> String {
        var place = Display.escaped(file)
        if let line = violation.line {
            place += ":\(line)"
            if let column = violation.column { place += ":\(column)" }
        }
        let path = violation.instancePath.isEmpty ? "/" : violation.instancePath
        var text = "\(place): \(Display.escaped(path)): \(Display.escaped(violation.message))"
        if keyword {
            let name = violation.keywordLocation.split(separator: "/").last.map(String.init) ?? ""
            text += " (\(Display.escaped(name)) at \(Display.escaped(violation.keywordLocation)))"
        }
        return text
    }

    /// The lines an error is reported as: an item's violations located in its file each
    /// on a line of its own, as `check` prints them; otherwise its description (which
    /// says the first violation), then each other violation indented.
    static func lines(of error: StoreError) -> [String] {
        if error.code == .schemaViolation, error.violations.first?.line != nil {
            return error.violations.map { line($0, file: error.file ?? "") }
        }
        return [error.description]
            + error.violations.dropFirst().map { violation in
                let path = violation.instancePath.isEmpty ? "/" : violation.instancePath
                return "  \(Display.escaped(path)): \(Display.escaped(violation.message))"
            }
    }

    /// The violation as JSON: `{"path", "keyword", "message", "line", "column"}`, the last
    /// two when known.
    static func json(_ violation: SchemaViolation) -> JSONValue {
        var object: JSONObject = [
            "path": .string(violation.instancePath),
            "keyword": .string(violation.keywordLocation),
            "message": .string(violation.message),
        ]
        if let line = violation.line { object["line"] = .number(JSONNumber(line)) }
        if let column = violation.column { object["column"] = .number(JSONNumber(column)) }
        return .object(object)
    }
}
