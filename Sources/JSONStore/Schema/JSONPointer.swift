/// A JSON Pointer (RFC 6901): the path to a value inside a JSON document, as reference
/// tokens (`/properties/a~1b` is `["properties", "a/b"]`).
struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    var tokens: [String]

    init(_ tokens: [String] = []) {
        self.tokens = tokens
    }

    /// Parses a pointer's text (`""`, `/a/0`); `nil` for text that is not one (no leading
    /// `/`, or a `~` not followed by `0` or `1`).
    init?(parsing text: Substring) {
        guard !text.isEmpty else {
            self.init()
            return
        }
        guard text.first == "/" else { return nil }
        var tokens: [String] = []
        for part in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let token = Self.unescape(part) else { return nil }
            tokens.append(token)
        }
        self.init(tokens)
    }

    /// The pointer's text, each token escaped.
    var description: String {
        tokens.map { "/" + Self.escape($0) }.joined()
    }

    func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens + [token])
    }

    func appending(contentsOf path: [String]) -> JSONPointer {
        JSONPointer(tokens + path)
    }

    /// The value the pointer names in `root`, or `nil` when there is none.
    func value(in root: JSONValue) -> JSONValue? {
        var current = root
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let array):
                // RFC 6901: an index is 0 or digits without a leading zero.
                guard token == "0" || (token.first != "0" && token.allSatisfy(\.isASCIIDigit)),
                    let index = Int(token), index < array.count
                else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }

    /// A token escaped for the pointer's text, as `MemberChange` writes paths.
    static func escape(_ token: String) -> String {
        MemberChange.escaped(token)
    }

    private static func unescape(_ part: Substring) -> String? {
        guard part.contains("~") else { return String(part) }
        var result = ""
        var escaping = false
        for character in part {
            if escaping {
                switch character {
                case "0": result.append("~")
                case "1": result.append("/")
                default: return nil
                }
                escaping = false
            } else if character == "~" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return escaping ? nil : result
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
