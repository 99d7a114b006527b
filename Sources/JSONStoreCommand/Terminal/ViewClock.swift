import Glibc

/// The command's clocks: monotonic seconds, for how long rows stay highlighted, when the
/// loading overlay appears and how often frames are drawn; the local time of day, which the
/// list view's header shows for the last change; and local dates, for `log` and `--since`
/// (with the C library's time zone rules, not Foundation's, so the command loads no ICU).
enum ViewClock {
    /// Seconds on the monotonic clock, which setting the date does not move.
    ///
    /// The corresponding C function is `clock_gettime` with `CLOCK_MONOTONIC`.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// The local time as `15:04:05`.
    ///
    /// The corresponding C functions are `time` and `localtime_r`.
    static func timeOfDay() -> String {
        var t = time(nil)
        var parts = tm()
        localtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    /// `seconds` since the epoch as the local date and time, `2026-12-01 09:30:00`: how
    /// `log` shows when a change was made.
    ///
    /// The corresponding C function is `localtime_r`.
    static func localDateTime(_ seconds: Double) -> String {
        var t = time_t(seconds.rounded(.down))
        var parts = tm()
        localtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }

    /// The start of the local day `year`-`month`-`day` in seconds since the epoch, or `nil`
    /// when there is no such day (`2026-02-30`).
    ///
    /// The corresponding C function is `mktime`.
    static func localMidnight(year: Int, month: Int, day: Int) -> Double? {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_isdst = -1
        let t = mktime(&parts)
        guard t != -1, parts.tm_mday == Int32(day), parts.tm_mon == Int32(month - 1) else {
            return nil
        }
        return Double(t)
    }
}
