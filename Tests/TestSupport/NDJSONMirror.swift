import JSONStore

/// The list an NDJSON stream (`jsonstore list --follow --json`) describes, rebuilt from
/// the stream alone, as a reader without the library would: the initial items, then each
/// update's deletions, insertions (the items at the insertion indices) and modifications.
public final class NDJSONMirror: Sendable {
    private let state = Locked<(items: [JSONValue], problems: [String])>(([], []))

    public init() {}

    /// Applies one line of the stream.
    public func apply(_ line: String) {
        guard let event = try? JSONValue(parsing: line) else {
            return state.withLock { $0.problems.append("not JSON: \(line.prefix(80))") }
        }
        state.withLock { state in
            switch event["event"]?.stringValue {
            case "initial":
                state.items = event["items"]?.arrayValue ?? []
            case "update":
                // An update that does not fit the list is a problem, never a crash.
                if let misfit = Self.apply(event, to: &state.items) {
                    state.problems.append(misfit)
                }
            default:
                break
            }
        }
    }

    /// Applies the update `event` to `items`; what does not fit them, if anything.
    private static func apply(_ event: JSONValue, to items: inout [JSONValue]) -> String? {
        let ints = { (key: String) in event[key]?.arrayValue?.compactMap(\.intValue) ?? [] }
        let misfit = { (what: String, index: Int, count: Int) in
            "\(what) \(index) does not fit \(count) items"
        }
        for index in ints("deletions").reversed() {
            guard items.indices.contains(index) else {
                return misfit("deletion", index, items.count)
            }
            items.remove(at: index)
        }
        for (k, index) in ints("insertions").enumerated() {
            guard index <= items.count else { return misfit("insertion", index, items.count) }
            items.insert(event["inserted"]!.arrayValue![k], at: index)
        }
        for (k, index) in ints("modificationsNew").enumerated() {
            guard items.indices.contains(index) else {
                return misfit("modification", index, items.count)
            }
            items[index] = event["modified"]!.arrayValue![k]
        }
        return nil
    }

    /// The items as the stream describes them now.
    public var items: [JSONValue] { state.withLock { $0.items } }

    /// The lines that were not JSON.
    public var problems: [String] { state.withLock { $0.problems } }
}
