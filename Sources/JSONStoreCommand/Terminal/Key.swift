/// A key press, decoded from the terminal's input bytes.
package enum Key: Equatable {
    case up, down, pageUp, pageDown, home, end, enter, escape, backspace, interrupt
    case character(Character)

    /// Decodes every complete key in `bytes`. An ESC with nothing after it is the Escape
    /// key (terminals send a whole sequence in one read).
    static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case 0x1B:
                // CSI or SS3
                if i + 2 < bytes.count, bytes[i + 1] == 0x5B || bytes[i + 1] == 0x4F {
                    var j = i + 2
                    while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
                    guard j < bytes.count else { return keys }
                    let parameters = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                    switch (bytes[j], parameters) {
                    case (0x41, _): keys.append(.up)
                    case (0x42, _): keys.append(.down)
                    case (0x48, _), (0x7E, "1"), (0x7E, "7"): keys.append(.home)
                    case (0x46, _), (0x7E, "4"), (0x7E, "8"): keys.append(.end)
                    case (0x7E, "5"): keys.append(.pageUp)
                    case (0x7E, "6"): keys.append(.pageDown)
                    default: break  // other keys are not used
                    }
                    i = j + 1
                    continue
                }
                keys.append(.escape)
            case 0x03: keys.append(.interrupt)
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x00..<0x20: break
            default:
                var length = 1
                if byte >= 0xF0 {
                    length = 4
                } else if byte >= 0xE0 {
                    length = 3
                } else if byte >= 0xC0 {
                    length = 2
                }
                let end = min(bytes.count, i + length)
                if let text = String(validating: bytes[i..<end], as: UTF8.self),
                    let character = text.first
                {
                    keys.append(.character(character))
                }
                i = end
                continue
            }
            i += 1
        }
        return keys
    }
}
