import JSONStore

/// One key of `--sort`: a field, ascending or descending (`-priority`).
struct SortField: Sendable, Equatable {
    let field: FieldPath
    let descending: Bool

    /// Parses `--sort`'s `[-]FIELD,[-]FIELD,...`.
    static func parse(_ text: String) throws(UsageError) -> [SortField] {
        var fields: [SortField] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var name = part.trimmingCharacters(in: " ")
            let descending = name.hasPrefix("-")
            if descending { name.removeFirst() }
            guard !name.isEmpty else {
                throw UsageError(
                    "--sort takes [-]FIELD,[-]FIELD,..., not '\(Display.escaped(text))'",
                    command: "list")
            }
            fields.append(SortField(field: FieldPath(name), descending: descending))
        }
        return fields
    }

    /// `-priority,title`, as typed.
    static func text(_ fields: [SortField]) -> String {
        fields.map { ($0.descending ? "-" : "") + $0.field.text }.joined(separator: ",")
    }

    /// `query` sorted by `fields`, ties by id. One top-level field uses the library's
    /// member order; several, or nested ones, compare the values key by key (numbers as
    /// numbers, strings by bytes, missing first when ascending).
    static func sorted(_ query: Query, by fields: [SortField]) -> Query {
        guard let first = fields.first else { return query.sortedByID() }
        if fields.count == 1, !first.field.isNested {
            if first.field.text == "id" && !first.descending { return query.sortedByID() }
            return query.sorted(by: first.field.text, descending: first.descending)
        }
        return query.sorted(
            named: text(fields),
            by: { item in fields.map { $0.field.value(in: item) } },
            comparing: { a, b in
                for (index, field) in fields.enumerated() {
                    let order: Int
                    switch JSONOrdering.compare(a[index], b[index]) {
                    case .less: order = -1
                    case .greater: order = 1
                    case .equal: continue
                    }
                    return field.descending ? -order : order
                }
                return 0
            })
    }
}

extension Substring {
    /// This text without `character` at either end.
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = self
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
