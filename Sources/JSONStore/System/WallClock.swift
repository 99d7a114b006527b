import Glibc

/// The system's real-time clock, the one file times come from.
enum WallClock {
    /// The time now.
    ///
    /// The corresponding C function is `clock_gettime` with `CLOCK_REALTIME`.
    static func now() -> timespec {
        var now = timespec()
        _ = Syscall.clockGettime(CLOCK_REALTIME, &now)
        return now
    }

    /// `time` in nanoseconds since the epoch, held at `Int64`'s bounds beyond them (past
    /// the year 2262 either way): file times come from anyone (`touch -d 2300-01-01`),
    /// and such a file must not stop the store.
    static func nanoseconds(_ time: timespec) -> Int64 {
        let (scaled, overflow) = Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return time.tv_sec < 0 ? .min : .max }
        let (sum, past) = scaled.addingReportingOverflow(Int64(time.tv_nsec))
        return past ? (time.tv_nsec < 0 ? .min : .max) : sum
    }

    /// The seconds from `time` to now: negative when `time` is in the future (a file
    /// written by a machine whose clock is ahead).
    static func secondsSince(_ time: timespec) -> Double {
        let now = now()
        return Double(now.tv_sec - time.tv_sec) + Double(now.tv_nsec - time.tv_nsec) / 1e9
    }
}

extension WallClock {
    /// The time now in UTC as `20261201-161500`, for names that sort by time.
    ///
    /// The corresponding C function is `gmtime_r`.
    static func stamp() -> String {
        var seconds = now().tv_sec
        var parts = tm()
        _ = gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))"
    }
}

extension WallClock {
    /// Waits `seconds` (a backoff's pause), whatever signals interrupt it.
    ///
    /// The corresponding C function is `nanosleep`.
    static func pause(_ seconds: Double) {
        guard seconds > 0 else { return }
        var left = timespec(
            tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var rest = timespec()
        while Syscall.nanosleep(&left, &rest) != 0 && errno == EINTR { left = rest }
    }
}
