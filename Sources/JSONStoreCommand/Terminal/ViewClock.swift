import Glibc

/// The list view's two clocks: monotonic seconds, for how long rows stay highlighted, when
/// the loading overlay appears and how often frames are drawn; and the local time of day,
/// which the header shows for the last change.
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
}
