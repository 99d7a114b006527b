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

    /// The seconds from `time` to now: negative when `time` is in the future (a file
    /// written by a machine whose clock is ahead).
    static func secondsSince(_ time: timespec) -> Double {
        let now = now()
        return Double(now.tv_sec - time.tv_sec) + Double(now.tv_nsec - time.tv_nsec) / 1e9
    }
}
