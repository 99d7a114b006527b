/// Finds where a value sits in a JSON document, so that an error about a decoded value
/// can point into the file (`tasks/tea.json:4:15: at priority: expected a number`).
///
/// Only used when something has gone wrong: the good path never pays for positions.
enum JSONLocator {
    /// The byte offset of the value at `path` in `bytes`, or of the deepest value on the
    /// path that exists (the object a missing key should be in); `nil` if `bytes` is not
    /// the JSON it was.
    ///
    /// - Complexity: O(n) in the length of `bytes`.
    static func offset(of path: [any CodingKey], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var scanner = Scanner(bytes: bytes)
        scanner.skipWhitespace()
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { scanner.i = 3 }
        scanner.skipWhitespace()
        var found = scanner.i
        for key in path {
            guard scanner.i < bytes.count else { return nil }
            let reached: Bool
            if let index = key.intValue, bytes[scanner.i] == UInt8(ascii: "[") {
                reached = scanner.enterElement(index)
            } else if bytes[scanner.i] == UInt8(ascii: "{") {
                reached = scanner.enterMember(key.stringValue)
            } else {
                reached = false
            }
            guard reached else { return found }
            found = scanner.i
        }
        return found
    }

    /// The line and column of the value at `path` in `bytes`, as `offset(of:in:)` finds it.
    static func position(of path: [any CodingKey], in bytes: [UInt8]) -> (line: Int, column: Int)? {
        bytes.withUnsafeBufferPointer { buffer in
            offset(of: path, in: buffer).map { JSONSyntaxError.position(of: $0, in: buffer) }
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        mutating func skipWhitespace() {
            while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
        }

        /// At `[`: moves to element `index` and returns true, or returns false.
        mutating func enterElement(_ index: Int) -> Bool {
            i += 1
            for _ in 0..<index {
                skipWhitespace()
                guard i < bytes.count, bytes[i] != UInt8(ascii: "]"), skipValue() else {
                    return false
                }
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { return false }
                i += 1
            }
            skipWhitespace()
            return i < bytes.count && bytes[i] != UInt8(ascii: "]")
        }

        /// At `{`: moves to the value of member `key` and returns true, or returns false.
        mutating func enterMember(_ key: String) -> Bool {
            i += 1
            while true {
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return false }
                let start = i
                guard skipString() else { return false }
                let name = try? JSONReader().read(Array(bytes[start..<i])).stringValue
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return false }
                i += 1
                skipWhitespace()
                if let name, UTF8Key.equal(name, key) { return true }
                guard skipValue() else { return false }
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { return false }
                i += 1
            }
        }

        /// Skips the value at `i`; false if it is not well formed.
        mutating func skipValue() -> Bool {
            guard i < bytes.count else { return false }
            switch bytes[i] {
            case UInt8(ascii: "\""):
                return skipString()
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                var depth = 0
                while i < bytes.count {
                    switch bytes[i] {
                    case UInt8(ascii: "\""):
                        guard skipString() else { return false }
                        continue
                    case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                    case UInt8(ascii: "]"), UInt8(ascii: "}"):
                        depth -= 1
                        if depth == 0 {
                            i += 1
                            return true
                        }
                    default: break
                    }
                    i += 1
                }
                return false
            default:  // a number or a literal: up to the next delimiter
                let start = i
                while i < bytes.count,
                    ![0x20, 0x0A, 0x0D, 0x09, 0x2C, 0x5D, 0x7D].contains(bytes[i])
                { i += 1 }
                return i > start
            }
        }

        /// Skips the string at `i` (its opening quote); false if it never closes.
        mutating func skipString() -> Bool {
            i += 1
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\\"): i += 2
                case UInt8(ascii: "\""):
                    i += 1
                    return true
                default: i += 1
                }
            }
            return false
        }
    }
}
