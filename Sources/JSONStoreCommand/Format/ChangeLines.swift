import JSONStore

/// The plain output of `list --follow` when stdout is not a terminal: one line per change:
/// `ADDED id`, `MODIFIED id`, `DELETED id`, `INVALID id: file:line:column: reason`, and
/// `RESOLVED name` for a file that was invalid and no longer is (fixed or removed),
/// `CONFLICT id: the version from WHERE, kept in FILE` and `RESOLVED name` for a conflict
/// that ended.
enum ChangeLines {
    static func lines(_ changes: ChangeSet<Item>) -> [String] {
        var out: [String] = []
        for item in changes.deleted { out.append("DELETED \(Display.escaped(item.id))") }
        for item in changes.inserted { out.append("ADDED \(Display.escaped(item.id))") }
        let invalidNames = Set(changes.invalid.map(\.name))
        for modification in changes.modified where !invalidNames.contains(modification.new.fileName)
        {
            out.append("MODIFIED \(Display.escaped(modification.new.id))")
        }
        return out + changes.invalid.map(invalid)
            + changes.resolved.map { "RESOLVED \(Display.escaped($0))" }
            + changes.conflicts.map {
                "CONFLICT \(Display.escaped($0.id)): the version from \(Display.escaped($0.origin)), kept in \(Display.escaped($0.file))"
            }
            + changes.resolvedConflicts.map { "RESOLVED \(Display.escaped($0.name))" }
    }

    /// `INVALID id: file:line:column: message`.
    static func invalid(_ file: InvalidFile) -> String {
        "INVALID \(Display.escaped(file.id ?? file.name)): \(file.error.description)"
    }
}
