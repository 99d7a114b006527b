/// A `format` checked as an assertion, when a schema's dialect or its caller asks for it
/// (by default `format` is an annotation only). Formats not listed are not checked, as
/// 2020-12 allows for formats an implementation does not know.
enum SchemaFormat: String, Sendable {
    case dateTime = "date-time"
    case date
    case time
    case duration
    case email
    case hostname
    case ipv4
    case ipv6
    case uri
    case uriReference = "uri-reference"
    case uuid
    case regex
    case jsonPointer = "json-pointer"

    /// Whether `value` is in the format; values that are not strings always are.
    func accepts(_ value: JSONValue) -> Bool {
        guard case .string(let text) = value else { return true }
        switch self {
        case .dateTime: return Self.isDateTime(text)
        case .date: return Self.isDate(text)
        case .time: return Self.isTime(Substring(text))
        case .duration: return Self.isDuration(text)
        case .email: return Self.isEmail(text)
        case .hostname: return Self.isHostname(text)
        case .ipv4: return Self.isIPv4(text)
        case .ipv6: return Self.isIPv6(text)
        case .uri: return Self.isURI(text)
        case .uriReference: return Self.isURIReference(text)
        case .uuid: return Self.isUUID(text)
        case .regex: return (try? ECMARegex(text)) != nil
        case .jsonPointer: return JSONPointer(parsing: Substring(text)) != nil
        }
    }

    private static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (i, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(i) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if !isHex(byte) {
                return false
            }
        }
        return true
    }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { part in
            guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy(isDigit),
                part == "0" || part.first != "0", let value = Int(part)
            else { return false }
            return value <= 255
        }
    }

    /// RFC 3339 full-date: YYYY-MM-DD, the day within its month (leap years counted).
    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes.enumerated().allSatisfy({ [4, 7].contains($0.offset) || isDigit($0.element) })
        else { return false }
        func number(_ range: Range<Int>) -> Int {
            range.reduce(0) { $0 * 10 + Int(bytes[$1] - UInt8(ascii: "0")) }
        }
        let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= days[month - 1]
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }
}
