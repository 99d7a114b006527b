import FoundationEssentials

/// A journal entry as one line of compact JSON, and back.
///
/// `{"rev":42,"time":1764648000123456789,"id":"tea","kind":"modified","fp":"157-9f3a…",
/// "source":"jsonstore","command":"set","op":"9f3a…","changes":[{"path":"/status",
/// "old":"open","new":"done"}]}`: the time in nanoseconds since the epoch; `whole` when the
/// entry holds the whole value, `late` on a change seen late, `first` where an item's
/// history begins (`HistoryEntry.isBaseline`); a member change's `old` or
/// `new` left out where there was none; `value` on a creation or deletion, `keyframe` on a
/// modification that keeps the whole value after it. What an item's head needs comes
/// first, so `head(of:)` reads it without parsing the values after it.
enum JournalLine {
    /// `entry` as a line, its newline included.
    static func encode(_ entry: HistoryEntry) -> [UInt8] {
        line(revision: entry.revision, body: body(entry))
    }

    /// The line of an entry numbered `revision` whose other members are `body`.
    static func line(revision: Int, body: [UInt8]) -> [UInt8] {
        var line = Array(#"{"rev":"#.utf8) + Array(String(revision).utf8) + [UInt8(ascii: ",")]
        line += body.dropFirst()
        return line
    }

    /// The line of `entry` but for its revision: an object from its second member on,
    /// newline included, made once and numbered as it is appended.
    static func body(_ entry: HistoryEntry) -> [UInt8] {
        var object: JSONObject = [
            "time": .number(JSONNumber(entry.timestamp)),
            "id": .string(entry.id), "kind": .string(entry.kind.rawValue),
        ]
        if let fingerprint = entry.fingerprint { object["fp"] = .string(fingerprint.etag) }
        if entry.value != nil || entry.keyframe != nil { object["whole"] = true }
        if entry.isLate { object["late"] = true }
        if entry.isBaseline { object["first"] = true }
        object["source"] = .string(entry.source.name)
        if let command = entry.source.command { object["command"] = .string(command) }
        if let operation = entry.operation { object["op"] = .string(operation) }
        if !entry.changes.isEmpty {
            object["changes"] = .array(
                entry.changes.map { change in
                    var member: JSONObject = ["path": .string(change.path)]
                    if let old = change.old { member["old"] = old }
                    if let new = change.new { member["new"] = new }
                    return .object(member)
                })
        }
        if let value = entry.value { object["value"] = .object(value) }
        if let keyframe = entry.keyframe { object["keyframe"] = .object(keyframe) }
        var line: [UInt8] = []
        JSONWriter.appendCompact(.object(object), to: &line, escapingUnicodeLineBreaks: true)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// The entry a line holds (without its newline), or why it is not one.
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<HistoryEntry, Damage> {
        let value: JSONValue
        do {
            value = try JSONReader(maxDepth: 600, maxSize: Int.max).read(line)
        } catch {
            return .failure(Damage(reason: "not JSON: \(error.reason)"))
        }
        guard case .object(let object) = value else {
            return .failure(Damage(reason: "not an entry"))
        }
        return decode(object)
    }

    static func decode(_ object: JSONObject) -> Result<HistoryEntry, Damage> {
        guard let revision = object["rev"]?.intValue, revision > 0,
            case .number(let time)? = object["time"], let nanoseconds = Int64(time.text),
            let id = object["id"]?.stringValue,
            let kind = object["kind"]?.stringValue.flatMap(HistoryEntry.Kind.init(rawValue:))
        else { return .failure(Damage(reason: "an entry without its revision, time, id or kind")) }
        let source: HistoryEntry.Source
        switch object["source"]?.stringValue {
        case "jsonstore": source = .jsonstore(command: object["command"]?.stringValue ?? "")
        case "other": source = .otherProgram
        case "git": source = .git
        case "mirror": source = .mirror
        default: return .failure(Damage(reason: "an entry of no known source"))
        }
        var changes: [MemberChange] = []
        for case .object(let member) in object["changes"]?.arrayValue ?? [] {
            guard let path = member["path"]?.stringValue else {
                return .failure(Damage(reason: "a member change without its path"))
            }
            changes.append(MemberChange(path: path, old: member["old"], new: member["new"]))
        }
        let fingerprint = object["fp"]?.stringValue.flatMap(Fingerprint.init(etag:))
        return .success(
            HistoryEntry(
                revision: revision, timestamp: nanoseconds, id: id, kind: kind, source: source,
                operation: object["op"]?.stringValue, changes: changes,
                value: object["value"]?.objectValue, isLate: object["late"] == true,
                isBaseline: object["first"] == true, fingerprint: fingerprint,
                keyframe: object["keyframe"]?.objectValue))
    }

    /// Why a line of the journal is not an entry.
    struct Damage: Error, Equatable {
        let reason: String
    }

    static func date(_ nanoseconds: Int64) -> Date {
        let seconds = nanoseconds / 1_000_000_000
        let fraction = nanoseconds % 1_000_000_000
        return Date(timeIntervalSince1970: Double(seconds) + Double(fraction) / 1e9)
    }
}
