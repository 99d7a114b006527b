import Foundation

/// Reads a pipe line by line, blocking.
final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()
    private(set) var lines: [String] = []

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next line, or `nil` at the end.
    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let data = handle.availableData
            if data.isEmpty { return nil }
            buffer.append(data)
        }
    }

    /// Reads lines, keeping them, until one satisfies `condition`.
    func next(until condition: (String) -> Bool) -> String? {
        while let line = next() {
            lines.append(line)
            if condition(line) { return line }
        }
        return nil
    }
}
