extension JournalLine {
    /// What an item's head needs of an entry: its revision, id, kind and fingerprint, and
    /// whether it holds the whole value.
    struct Head: Sendable, Hashable {
        var revision: Int
        var id: String
        var kind: HistoryEntry.Kind
        var fingerprint: Fingerprint?
        var whole: Bool
    }

    /// The head of the entry a line holds, read from the members the journal writes first
    /// (`{"rev":…,"time":…,"id":…,"kind":…,"fp":…,"whole":true,…`) without parsing the
    /// values after them; a line written otherwise is parsed whole. `nil` when it is not an
    /// entry.
    static func head(_ line: UnsafeBufferPointer<UInt8>) -> Head? {
        var scanner = HeadScanner(bytes: line)
        if let head = scanner.scan() { return head }
        guard case .success(let entry) = decode(line) else { return nil }
        return Head(
            revision: entry.revision, id: entry.id, kind: entry.kind,
            fingerprint: entry.fingerprint,
            whole: entry.keepsWhole)
    }
}

/// Reads the first members of a line as the journal writes them, nothing more.
private struct HeadScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    mutating func scan() -> JournalLine.Head? {
        guard expect(#"{"rev":"#), let revision = integer(), revision > 0,
            expect(#","time":"#), integer() != nil, expect(#","id":"#), let id = string(),
            expect(#","kind":""#), let kindEnd = ByteSearch.first(quote, in: bytes, from: at),
            let kind = HistoryEntry.Kind(
                rawValue: String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[at..<kindEnd]), as: UTF8.self))
        else { return nil }
        at = kindEnd + 1
        var fingerprint: Fingerprint?
        if expect(#","fp":""#) {
            guard let end = ByteSearch.first(quote, in: bytes, from: at),
                let read = Fingerprint(etagBytes: UnsafeBufferPointer(rebasing: bytes[at..<end]))
            else { return nil }
            (fingerprint, at) = (read, end + 1)
        }
        // A creation or a deletion begins an item's versions again, a value or none.
        let whole = expect(#","whole":true"#) || kind != .modified
        // The line must go on as an object does, and end as one.
        guard at < bytes.count, bytes[at] == UInt8(ascii: ","), bytes.last == UInt8(ascii: "}")
        else { return nil }
        return JournalLine.Head(
            revision: revision, id: id, kind: kind, fingerprint: fingerprint, whole: whole)
    }

    private var quote: UInt8 { UInt8(ascii: "\"") }

    /// Whether `text` comes next; if so, moves past it.
    private mutating func expect(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        for i in 0..<count where bytes[at + i] != text.utf8Start[i] { return false }
        at += count
        return true
    }

    /// A non-negative integer's digits.
    private mutating func integer() -> Int? {
        var value = 0
        let start = at
        while at < bytes.count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            value = times + Int(bytes[at] - UInt8(ascii: "0"))
            at += 1
        }
        return at > start ? value : nil
    }

    /// A JSON string, its escapes read by the JSON reader.
    private mutating func string() -> String? {
        guard at < bytes.count, bytes[at] == quote else { return nil }
        var end = at + 1
        while end < bytes.count, bytes[end] != quote {
            end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard end < bytes.count,
            case .string(let text)? = try? JSONReader().read(
                UnsafeBufferPointer(rebasing: bytes[at...end]))
        else { return nil }
        at = end + 1
        return text
    }
}
