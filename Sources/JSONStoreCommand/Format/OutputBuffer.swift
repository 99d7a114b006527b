import Glibc
import JSONStore

/// Output made in memory and handed on in pieces of about 64 KiB: a listing of a million
/// items is written as it is made, never built whole as one string.
struct OutputBuffer {
    /// The size at which a piece is handed on.
    static let pieceSize = 1 << 16

    private var bytes: [UInt8] = []
    private let sink: ([UInt8]) -> Void

    /// A buffer that hands each piece to `sink`.
    init(_ sink: @escaping ([UInt8]) -> Void) {
        self.sink = sink
        bytes.reserveCapacity(Self.pieceSize + 4096)
    }

    /// A buffer for standard output.
    static func standardOutput() -> OutputBuffer {
        OutputBuffer { pieces in
            var bytes = pieces
            Output.writeAll(fd: STDOUT_FILENO, &bytes)
        }
    }

    /// Appends `text` and a newline.
    mutating func line(_ text: String) {
        append { bytes in
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
            bytes.append(0x0A)
        }
    }

    /// Appends what `body` writes into the buffer's bytes.
    mutating func append(_ body: (inout [UInt8]) -> Void) {
        body(&bytes)
        if bytes.count >= Self.pieceSize { flush() }
    }

    /// Hands on what the buffer holds, then `piece` as it is (no copy into the buffer).
    mutating func hand(_ piece: [UInt8]) {
        flush()
        if !piece.isEmpty { sink(piece) }
    }

    /// Hands on what the buffer holds.
    mutating func flush() {
        guard !bytes.isEmpty else { return }
        sink(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
