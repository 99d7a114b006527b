/// How a cell of a `Frame` looks: its colours and attributes.
struct Style: Equatable, Sendable {
    enum Color: UInt8, Sendable {
        case black = 0
        case red, green, yellow, blue, magenta, cyan, white
    }

    var foreground: Color?
    var background: Color?
    var bold = false
    var dim = false
    var reverse = false

    static let plain = Style()

    /// The SGR sequence that sets exactly this style from a reset.
    func sgr(color: Bool) -> String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if reverse { codes.append("7") }
        if color {
            if let foreground { codes.append(String(30 + Int(foreground.rawValue))) }
            if let background { codes.append(String(40 + Int(background.rawValue))) }
        }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}
