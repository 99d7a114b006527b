import FoundationEssentials
import JSONStore

/// How `log` words the history: a table line per entry or operation, with the members a
/// change touched (`status: open → done`, `tags: +urgent`), or JSON objects.
struct HistoryWords {
    /// `date` in local time, `2026-12-01 09:30:00`; `-` when not known (etcd).
    private func localTime(_ date: Date?) -> String {
        date.map { ViewClock.localDateTime($0.timeIntervalSince1970) } ?? "-"
    }

    /// The table: a header, then a line per entry, fitted to `width`.
    func table(_ entries: [HistoryEntry], width: Int) -> [String] {
        let rows = entries.map { entry in
            [
                String(entry.revision), localTime(entry.time),
                Display.escaped(entry.id), entry.kind.rawValue, source(entry), changes(entry),
            ]
        }
        return Table.lines(
            header: ["REV", "TIME", "ID", "KIND", "SOURCE", "CHANGES"], rows: rows, width: width)
    }

    /// The table of operations: a line per operation, with how many items it changed.
    func table(_ operations: [HistoryOperation], width: Int) -> [String] {
        let rows = operations.map { operation in
            let ids = operation.entries.reversed().map { Display.escaped($0.id) }
            let items = ids.count == 1 ? "1 item" : "\(ids.count) items"
            return [
                revisions(operation), localTime(operation.newest.time),
                operation.newest.operation ?? "-", source(operation.newest), items,
                ids.joined(separator: ", "),
            ]
        }
        return Table.lines(
            header: ["REV", "TIME", "OP", "SOURCE", "CHANGED", "IDS"], rows: rows, width: width)
    }

    private func revisions(_ operation: HistoryOperation) -> String {
        operation.entries.count == 1
            ? String(operation.newest.revision)
            : "\(operation.oldest.revision)-\(operation.newest.revision)"
    }

    /// Who made it: `jsonstore set`, `other`, `git`, `mirror`; `late` when seen late;
    /// `first seen` where the item's history begins.
    func source(_ entry: HistoryEntry) -> String {
        if entry.isBaseline { return "first seen" }
        let who =
            entry.source.command.map { "jsonstore " + Display.escaped($0) } ?? entry.source.name
        return entry.isLate ? who + " (late)" : who
    }

    /// The members it touched, each as `name: old → new`, `name: +added` or `-removed`;
    /// for a creation or deletion, the item itself.
    func changes(_ entry: HistoryEntry) -> String {
        guard entry.kind == .modified else {
            return entry.value.map { Display.escaped(compact(.object($0))) } ?? ""
        }
        if entry.changes.isEmpty { return "(what changed is not known)" }
        return entry.changes.map(member).joined(separator: ", ")
    }

    /// One member change in words.
    func member(_ change: MemberChange) -> String {
        var tokens = change.path.split(separator: "/", omittingEmptySubsequences: false)
            .dropFirst().map {
                String($0).replacing("~1", with: "/").replacing("~0", with: "~")
            }
        // An element added to or removed from an array: the array's name, + or -.
        if let last = tokens.last, tokens.count > 1, Int(last) != nil,
            change.old == nil || change.new == nil
        {
            tokens.removeLast()
            let name = Display.escaped(tokens.joined(separator: "."))
            return change.new.map { "\(name): +\(Table.cell($0))" }
                ?? "\(name): -\(Table.cell(change.old))"
        }
        let name = Display.escaped(tokens.joined(separator: "."))
        switch (change.old, change.new) {
        case (nil, let new?): return "\(name): +\(Table.cell(new))"
        case (let old?, nil): return "\(name): -\(Table.cell(old))"
        default: return "\(name): \(Table.cell(change.old)) → \(Table.cell(change.new))"
        }
    }

    /// An entry as `log -o json` writes it.
    func json(_ entry: HistoryEntry) -> JSONValue {
        var object: JSONObject = [
            "revision": .number(JSONNumber(entry.revision))
        ]
        if let time = entry.time { object["time"] = .string(iso(time)) }
        object["id"] = .string(entry.id)
        object["kind"] = .string(entry.kind.rawValue)
        object["source"] = .string(entry.source.name)
        if let command = entry.source.command { object["command"] = .string(command) }
        if let operation = entry.operation { object["op"] = .string(operation) }
        if entry.isLate { object["late"] = true }
        if entry.isBaseline { object["firstSeen"] = true }
        if entry.kind == .modified {
            object["patch"] = entry.patch.json
            object["inverse"] = entry.inversePatch.json
        }
        if let value = entry.value { object["value"] = .object(value) }
        return .object(object)
    }

    /// An operation as `log --ops -o json` writes it.
    func json(_ operation: HistoryOperation) -> JSONValue {
        var object: JSONObject = [
            "revision": .number(JSONNumber(operation.newest.revision)),
            "firstRevision": .number(JSONNumber(operation.oldest.revision)),
        ]
        if let time = operation.newest.time { object["time"] = .string(iso(time)) }
        if let op = operation.newest.operation { object["op"] = .string(op) }
        if case .object(let first) = json(operation.newest) {
            object["source"] = first["source"]
            if let command = first["command"] { object["command"] = command }
        }
        object["ids"] = .array(operation.entries.reversed().map { .string($0.id) })
        return .object(object)
    }

    /// `date` in UTC, to the millisecond: `2026-12-01T09:30:00.123Z`.
    func iso(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `value` as one line of JSON, safe on a terminal.
    func compact(_ value: JSONValue) -> String {
        var bytes: [UInt8] = []
        JSONWriter.appendCompact(value, to: &bytes, escapingUnicodeLineBreaks: true)
        return String(decoding: bytes, as: UTF8.self)
    }
}
