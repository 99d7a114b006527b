/// An RFC 6902 JSON Patch: operations applied in order to a value, all or nothing.
///
/// The history makes them from `MemberChange`s: `forward` turns the value before a change
/// into the value after it, `inverse` the other way.
public struct JSONPatch: Sendable, Hashable {
    /// One operation: `add`, `remove`, `replace` or `test`, at a JSON Pointer.
    public enum Operation: Sendable, Hashable {
        case add(path: String, value: JSONValue)
        case remove(path: String)
        case replace(path: String, value: JSONValue)
        case test(path: String, value: JSONValue)

        /// Its JSON Pointer.
        public var path: String {
            switch self {
            case .add(let path, _), .remove(let path), .replace(let path, _),
                .test(let path, _):
                return path
            }
        }

        /// Its RFC 6902 form: `{"op": "replace", "path": "/status", "value": "done"}`.
        public var json: JSONValue {
            var object: JSONObject = [:]
            switch self {
            case .add(let path, let value):
                object = ["op": "add", "path": .string(path)]
                object["value"] = value
            case .remove(let path): object = ["op": "remove", "path": .string(path)]
            case .replace(let path, let value):
                object = ["op": "replace", "path": .string(path)]
                object["value"] = value
            case .test(let path, let value):
                object = ["op": "test", "path": .string(path)]
                object["value"] = value
            }
            return .object(object)
        }
    }

    /// The operations, in the order they apply.
    public var operations: [Operation]

    public init(_ operations: [Operation]) { self.operations = operations }

    /// The patch as an RFC 6902 document: an array of operations.
    public var json: JSONValue { .array(operations.map(\.json)) }

    /// The patch that makes `changes` (in `MemberChange.between`'s order).
    package init(forward changes: [MemberChange]) {
        operations = changes.map { change in
            switch (change.old, change.new) {
            case (nil, let new?): .add(path: change.path, value: new)
            case (_?, nil): .remove(path: change.path)
            case (_, let new?): .replace(path: change.path, value: new)
            case (nil, nil): .remove(path: change.path)
            }
        }
    }

    /// The patch that undoes `changes`: each one reversed, the last first, so an array's
    /// elements added at its end in ascending order are removed in descending order.
    package init(inverse changes: [MemberChange]) {
        self.init(
            forward: changes.reversed().map {
                MemberChange(path: $0.path, old: $0.new, new: $0.old)
            })
    }

    /// Why a patch does not apply: the operation's index and path, and the reason.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        public let index: Int
        public let path: String
        public let reason: String
        public var description: String { "operation \(index) at \(path): \(reason)" }
    }

    /// `value` with every operation applied, or the first that does not apply.
    public func applied(to value: JSONValue) -> Result<JSONValue, Failure> {
        var current = value
        for (index, operation) in operations.enumerated() {
            let tokens = Self.tokens(operation.path)
            let outcome: String?
            switch operation {
            case .add(_, let new): outcome = Self.edit(&current, tokens[...], .add(new))
            case .remove: outcome = Self.edit(&current, tokens[...], .remove)
            case .replace(_, let new): outcome = Self.edit(&current, tokens[...], .replace(new))
            case .test(_, let expected):
                let actual =
                    operation.path.isEmpty
                    ? current : MemberChange.value(at: operation.path.dropFirst(), in: current)
                outcome = actual == expected ? nil : "not the value tested for"
            }
            if let outcome {
                return .failure(Failure(index: index, path: operation.path, reason: outcome))
            }
        }
        return .success(current)
    }

    private enum Edit {
        case add(JSONValue)
        case remove
        case replace(JSONValue)
    }

    /// A pointer's tokens, unescaped (`~1` is `/`, `~0` is `~`); none for the whole value.
    private static func tokens(_ pointer: String) -> [String] {
        guard !pointer.isEmpty else { return [] }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacing("~1", with: "/").replacing("~0", with: "~")
        }
    }

    /// Applies `edit` at `tokens` inside `value`; the reason when it cannot.
    private static func edit(_ value: inout JSONValue, _ tokens: ArraySlice<String>, _ edit: Edit)
        -> String?
    {
        guard let token = tokens.first else {
            switch edit {
            case .add(let new), .replace(let new): value = new
            case .remove: return "the whole value cannot be removed"
            }
            return nil
        }
        let rest = tokens.dropFirst()
        switch value {
        case .object(var object):
            if rest.isEmpty {
                switch edit {
                case .add(let new): object[token] = new
                case .replace(let new):
                    guard object[token] != nil else { return "no such member" }
                    object[token] = new
                case .remove:
                    guard object.removeValue(forKey: token) != nil else { return "no such member" }
                }
            } else {
                guard var inner = object[token] else { return "no such member" }
                if let reason = Self.edit(&inner, rest, edit) { return reason }
                object[token] = inner
            }
            value = .object(object)
        case .array(var array):
            let index: Int
            if token == "-" {
                index = array.count
            } else if let number = Int(token), number >= 0, token == String(number) {
                index = number
            } else {
                return "not an array index"
            }
            if rest.isEmpty, case .add(let new) = edit {
                guard index <= array.count else { return "index out of range" }
                array.insert(new, at: index)
            } else {
                guard index < array.count else { return "index out of range" }
                if rest.isEmpty {
                    switch edit {
                    case .replace(let new): array[index] = new
                    case .remove: array.remove(at: index)
                    case .add: break
                    }
                } else if let reason = Self.edit(&array[index], rest, edit) {
                    return reason
                }
            }
            value = .array(array)
        default:
            return "not inside an object or array"
        }
        return nil
    }
}
