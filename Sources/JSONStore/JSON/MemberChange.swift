/// One member of an item that changed: where it is (a JSON Pointer, RFC 6901), and its
/// value before and after (`nil`: it was not there, or is not any more).
///
/// A modification lists the smallest such changes, outermost first where a whole value
/// was replaced: an object's members by name, an array's elements by index, so `"/tags/2"`
/// is the third tag and `"/owner/name"` the member `name` of `owner` (a `/` in a name is
/// written `~1`, a `~` is written `~0`).
///
/// ```swift
/// for change in modification.changes {
///     print(change.path, change.old ?? .null, "->", change.new ?? .null)
/// }
/// ```
public struct MemberChange: Sendable, Hashable, CustomStringConvertible {
    /// Where the member is in the item: a JSON Pointer (`/owner/name`, `/tags/2`).
    public let path: String
    /// Its value before, `nil` if it was added.
    public let old: JSONValue?
    /// Its value now, `nil` if it was removed.
    public let new: JSONValue?

    public init(path: String, old: JSONValue?, new: JSONValue?) {
        self.path = path
        self.old = old
        self.new = new
    }

    public var description: String {
        "\(path): \(old.map { "\($0)" } ?? "(none)") -> \(new.map { "\($0)" } ?? "(none)")"
    }

    /// Whether modifications are diffed (`package` so the benchmark can measure what the
    /// diff costs, with and without, side by side). nonisolated(unsafe): a knob set by the
    /// single-threaded benchmark between edits, never while one is being delivered.
    package nonisolated(unsafe) static var diffsModifications = true

    /// The RFC 6902 operation that makes this change: `add`, `remove` or `replace`.
    public var operation: String { old == nil ? "add" : new == nil ? "remove" : "replace" }

    /// The changes that turn the item `old` into `new`, in the order an RFC 6902 patch
    /// applies them: members in the new value's order, then the ones removed; an array's
    /// common elements by index, then elements added at the end in ascending order, or
    /// removed from the end in descending order. The top-level `"id"` is never part of it.
    ///
    /// - Complexity: O(n) in the size of both values.
    package static func between(_ old: JSONObject, _ new: JSONObject) -> [MemberChange] {
        var changes: [MemberChange] = []
        diff(old, new, at: "", into: &changes, skippingID: true)
        return changes
    }

    private static func diff(
        _ old: JSONValue, _ new: JSONValue, at path: String, into changes: inout [MemberChange]
    ) {
        switch (old, new) {
        case (.object(let a), .object(let b)):
            diff(a, b, at: path, into: &changes, skippingID: false)
        case (.array(let a), .array(let b)):
            for i in 0..<min(a.count, b.count) {
                diff(a[i], b[i], at: path + "/\(i)", into: &changes)
            }
            for i in a.count..<max(a.count, b.count) {
                changes.append(MemberChange(path: path + "/\(i)", old: nil, new: b[i]))
            }
            for i in (b.count..<max(a.count, b.count)).reversed() {
                changes.append(MemberChange(path: path + "/\(i)", old: a[i], new: nil))
            }
        default:
            if old != new { changes.append(MemberChange(path: path, old: old, new: new)) }
        }
    }

    private static func diff(
        _ old: JSONObject, _ new: JSONObject, at path: String, into changes: inout [MemberChange],
        skippingID: Bool
    ) {
        func place(_ key: String) -> String { path + "/" + escaped(key) }
        func skipped(_ key: String) -> Bool { skippingID && UTF8Key.equal(key, "id") }
        // The usual edit keeps the keys in their order, and adds any new one after them:
        // the members the two share from the start are walked side by side, a path made
        // only for a member whose value changed.
        let (old, new) = (old.members, new.members)
        var common = 0
        while common < min(old.count, new.count),
            UTF8Key.equal(old[common].key, new[common].key)
        {
            let (before, after) = (old[common], new[common])
            if before.value != after.value && !skipped(after.key) {
                diff(before.value, after.value, at: place(after.key), into: &changes)
            }
            common += 1
        }
        // The rest by the keys' bytes (keys are unique in an object, so none of the rest
        // is one of those walked); a dictionary, so wide objects stay linear.
        var before: [UTF8Key: JSONValue] = [:]
        before.reserveCapacity(old.count - common)
        for member in old[common...] { before[UTF8Key(member.key)] = member.value }
        var seen: Set<UTF8Key> = []
        for member in new[common...] {
            let key = UTF8Key(member.key)
            if !before.isEmpty { seen.insert(key) }
            if skipped(member.key) { continue }
            if let value = before[key] {
                if value != member.value {
                    diff(value, member.value, at: place(member.key), into: &changes)
                }
            } else {
                changes.append(MemberChange(path: place(member.key), old: nil, new: member.value))
            }
        }
        for member in old[common...] where !seen.contains(UTF8Key(member.key)) {
            if skipped(member.key) { continue }
            changes.append(MemberChange(path: place(member.key), old: member.value, new: nil))
        }
    }

    /// `member` as a JSON Pointer: a pointer as it is, a name or dotted path (`owner.name`,
    /// as `--where` reads it) made into one (`/owner/name`).
    static func pointer(_ member: String) -> String {
        if member.hasPrefix("/") { return member }
        return "/"
            + member.split(separator: ".", omittingEmptySubsequences: false)
            .map { escaped(String($0)) }.joined(separator: "/")
    }

    /// Whether `changes` touch the member at `pointer`: it, something inside it, or the
    /// value holding it changed.
    static func touched(_ changes: [MemberChange], _ pointer: String) -> Bool {
        changes.contains { change in
            if change.path == pointer || change.path.hasPrefix(pointer + "/") { return true }
            guard pointer.hasPrefix(change.path + "/") else { return false }
            // The value holding it changed: did the member itself (absent stays absent)?
            let rest = pointer.dropFirst(change.path.count + 1)
            return value(at: rest, in: change.old) != value(at: rest, in: change.new)
        }
    }

    /// The value at the JSON Pointer `path` (without its leading `/`) inside `value`.
    static func value(at path: Substring, in value: JSONValue?) -> JSONValue? {
        var current = value
        for token in path.split(separator: "/", omittingEmptySubsequences: false) {
            let name = String(token).unescapedPointerToken
            switch current {
            case .object(let object)?: current = object[name]
            case .array(let array)?:
                guard let index = Int(name), array.indices.contains(index) else { return nil }
                current = array[index]
            default: return nil
            }
        }
        return current
    }

    /// The name of the top-level member a JSON Pointer is in (`/owner/name` is in `owner`,
    /// `/a~1b` is the member `a/b`).
    package static func topLevelName(of pointer: String) -> String {
        String(pointer.dropFirst().prefix { $0 != "/" }).unescapedPointerToken
    }

    /// A member name as a JSON Pointer token: `~` as `~0`, `/` as `~1` (RFC 6901 §3).
    static func escaped(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") })
        else { return name }
        var token = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {  // scalar by scalar: the name's bytes kept
            switch scalar {
            case "~": token.append(contentsOf: "~0".unicodeScalars)
            case "/": token.append(contentsOf: "~1".unicodeScalars)
            default: token.append(scalar)
            }
        }
        return String(token)
    }
}

extension String {
    /// A JSON Pointer token as the name it stands for: `~1` as `/`, `~0` as `~`.
    fileprivate var unescapedPointerToken: String {
        guard utf8.contains(UInt8(ascii: "~")) else { return self }
        var name = String.UnicodeScalarView()
        var escaping = false
        for scalar in unicodeScalars {
            if escaping {
                name.append(scalar == "1" ? "/" : scalar == "0" ? "~" : scalar)
                escaping = false
            } else if scalar == "~" {
                escaping = true
            } else {
                name.append(scalar)
            }
        }
        return String(name)
    }
}
