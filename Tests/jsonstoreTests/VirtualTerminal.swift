@testable import JSONStoreCommand

/// An in-memory terminal that understands what the list view writes: cursor moves,
/// clearing, text, and styles (ignored). What it shows is what a real terminal would.
struct VirtualTerminal {
    private(set) var cells: [[String]]
    private var row = 0
    private var column = 0
    /// How many times the cursor was positioned (one per row written).
    private(set) var rowsWritten = 0

    init(width: Int, height: Int) {
        cells = Array(repeating: Array(repeating: " ", count: width), count: height)
    }

    var text: [String] { cells.map { $0.joined() } }

    mutating func resize(width: Int, height: Int) {
        cells = Array(repeating: Array(repeating: " ", count: width), count: height)
    }

    mutating func feed(_ output: String) {
        rowsWritten = 0
        var scalars = Array(output.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\u{1B}" {
                guard scalars.first == "[" else { continue }
                scalars.removeFirst()
                var parameters = ""
                while let next = scalars.popFirst() {
                    if (0x40...0x7E).contains(next.value) {
                        apply(final: next, parameters: parameters)
                        break
                    }
                    parameters.unicodeScalars.append(next)
                }
                continue
            }
            precondition(scalar.value >= 0x20, "a raw control character reached the terminal")
            let width = TextWidth.of(scalar)
            if width == 0 {
                if column > 0 { cells[row][column - 1].unicodeScalars.append(scalar) }
                continue
            }
            guard row < cells.count, column + width <= cells[row].count else { continue }
            cells[row][column] = String(scalar)
            if width == 2 { cells[row][column + 1] = "" }
            column += width
        }
    }

    private mutating func apply(final: Unicode.Scalar, parameters: String) {
        switch final {
        case "H":
            let parts = parameters.split(separator: ";").compactMap { Int($0) }
            row = (parts.first ?? 1) - 1
            column = (parts.count > 1 ? parts[1] : 1) - 1
            rowsWritten += 1
        case "J":
            if parameters == "2" {
                for r in cells.indices { cells[r] = Array(repeating: " ", count: cells[r].count) }
            }
        default:
            break  // styles, synchronized output
        }
    }
}
