extension SchemaFormat {
    /// RFC 3339 `full-time`: `HH:MM:SS[.frac]` and an offset (`Z` or `±HH:MM`); a leap
    /// second (`:60`) only where the time is 23:59 in UTC.
    static func isTime(_ text: Substring) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 9, let hour = twoDigits(bytes, 0), bytes[2] == colon,
            let minute = twoDigits(bytes, 3), bytes[5] == colon, let second = twoDigits(bytes, 6),
            hour <= 23, minute <= 59, second <= 60
        else { return false }
        var i = 8
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
            guard i > start else { return false }
        }
        guard i < bytes.count else { return false }
        var offset = 0  // minutes east of UTC
        switch bytes[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == bytes.count else { return false }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.count == i + 6, let hours = twoDigits(bytes, i + 1), bytes[i + 3] == colon,
                let minutes = twoDigits(bytes, i + 4), hours <= 23, minutes <= 59
            else { return false }
            offset = (hours * 60 + minutes) * (bytes[i] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return false
        }
        guard second == 60 else { return true }
        let utc = ((hour * 60 + minute - offset) % 1440 + 1440) % 1440
        return utc == 23 * 60 + 59
    }

    /// RFC 3339 `date-time`: a `full-date`, `T` (or `t`), a `full-time`.
    static func isDateTime(_ text: String) -> Bool {
        // Anything not ASCII in the date fails it, so characters and bytes agree here.
        guard let separator = text.dropFirst(10).first, separator == "T" || separator == "t"
        else { return false }
        return isDate(String(text.prefix(10))) && isTime(text.dropFirst(11))
    }

    /// ISO 8601 durations as RFC 3339's appendix A gives them: `P1Y2M3DT4H5M6S`, its
    /// runs of adjacent units, or weeks alone (`P3W`).
    static func isDuration(_ text: String) -> Bool {
        durationPattern?.matches(text) == true
    }

    private static let durationPattern: SchemaPattern? = {
        let time = #"T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S)"#
        let date = #"(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)"#
        return try? SchemaPattern("^P(?:\\d+W|\(date)(?:\(time))?|\(time))$")
    }()

    static let colon = UInt8(ascii: ":")

    static func twoDigits(_ bytes: [UInt8], _ at: Int) -> Int? {
        guard at + 1 < bytes.count, isDigit(bytes[at]), isDigit(bytes[at + 1]) else { return nil }
        return Int(bytes[at] - UInt8(ascii: "0")) * 10 + Int(bytes[at + 1] - UInt8(ascii: "0"))
    }
}
