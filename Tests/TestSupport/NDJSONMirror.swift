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
            let ints = { (key: String) in event[key]?.arrayValue?.compactMap(\.intValue) ?? [] }
            switch event["event"]?.stringValue {
            case "initial":
                state.items = event["items"]?.arrayValue ?? []
            case "update":
                for index in ints("deletions").reversed() { state.items.remove(at: index) }
                for (k, index) in ints("insertions").enumerated() {
                    state.items.insert(event["inserted"]!.arrayValue![k], at: index)
                }
                for (k, index) in ints("modificationsNew").enumerated() {
                    state.items[index] = event["modified"]!.arrayValue![k]
                }
            default:
                break
            }
        }
    }

    /// The items as the stream describes them now.
    public var items: [JSONValue] { state.withLock { $0.items } }

    /// The lines that were not JSON.
    public var problems: [String] { state.withLock { $0.problems } }
}
