/// Every C0 control, DEL, every C1 control, the bidi controls and the Unicode line
/// breaks: what must never reach a terminal raw, for tests of every output path.
public let terminalUnsafeScalars: [Unicode.Scalar] =
    (Array(0x00...0x1F) + Array(0x7F...0x9F) + [0x061C, 0x200E, 0x200F, 0x2028, 0x2029]
    + Array(0x202A...0x202E) + Array(0x2066...0x2069)).map { Unicode.Scalar(UInt32($0))! }
