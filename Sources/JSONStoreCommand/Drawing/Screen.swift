/// Turns frames into terminal output, writing only the rows that changed since the last
/// frame, inside synchronized output (`CSI ? 2026 h` … `l`) so the terminal shows whole
/// frames only.
package struct Screen {
    private var previous: [String] = []
    private var size: (width: Int, height: Int) = (0, 0)
    let color: Bool

    package init(color: Bool) {
        self.color = color
    }

    /// Forgets what is on the terminal, so the next frame is drawn whole (after a resize).
    mutating func invalidate() {
        previous = []
    }

    /// The bytes that change the terminal from the last frame to `frame`; empty when
    /// nothing changed.
    ///
    /// - Complexity: O(width × height) to compare; the output is O(changed rows × width).
    package mutating func update(to frame: Frame) -> String {
        var out = ""
        let resized = size != (frame.width, frame.height)
        if resized || previous.count != frame.height {
            previous = Array(repeating: "", count: frame.height)
            size = (frame.width, frame.height)
            out += "\u{1B}[0m\u{1B}[2J"
        }
        for row in 0..<frame.height {
            let line = frame.serialize(row: row, color: color)
            if line != previous[row] {
                out += "\u{1B}[\(row + 1);1H" + line
                previous[row] = line
            }
        }
        guard !out.isEmpty else { return "" }
        return "\u{1B}[?2026h" + out + "\u{1B}[?2026l"
    }
}
