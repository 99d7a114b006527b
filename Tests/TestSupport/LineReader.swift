import Foundation
import Glibc

/// Reads a pipe line by line as the lines arrive, each wait bounded if asked, so a test
/// that expects a line fails with what it got instead of hanging.
public final class LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    /// The lines `next(until:)` read, in order.
    public private(set) var lines: [String] = []

    public init(_ pipe: Pipe) {
        handle = pipe.fileHandleForReading
    }

    /// The next line; at the end, what is left of an unterminated one, then `nil`. Also
    /// `nil` when no line is complete within `seconds`.
    public func next(within seconds: Double = .infinity) -> String? {
        PoolGuard.check("waiting for a line")
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard seconds.isInfinite || waitForData(until: deadline) else { return nil }
            let data = handle.availableData
            if data.isEmpty {
                defer { buffer.removeAll() }
                return buffer.isEmpty ? nil : String(decoding: buffer, as: UTF8.self)
            }
            buffer += data
        }
    }

    /// Reads lines, keeping them in `lines`, until one satisfies `condition`; `nil` at the
    /// end or when none does within `seconds`.
    public func next(until condition: (String) -> Bool, within seconds: Double = .infinity)
        -> String?
    {
        let deadline = Date().addingTimeInterval(seconds)
        while let line = next(within: deadline.timeIntervalSinceNow) {
            lines.append(line)
            if condition(line) { return line }
        }
        return nil
    }

    /// Whether the pipe has data (or its end) before `deadline`.
    private func waitForData(until deadline: Date) -> Bool {
        var entry = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            let ready = poll(&entry, 1, Int32(min(left, 1) * 1000))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }  // let the read report it
        }
    }
}
