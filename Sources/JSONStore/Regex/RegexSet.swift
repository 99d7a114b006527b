/// A set of code points, as a class (`[a-z\d]`), `.`, or an escape (`\w`, `\p{L}`)
/// makes one: ranges, Unicode property tests, negated as a whole.
struct RegexSet: Sendable {
    /// A Unicode property a `\p{…}` escape tests.
    indirect enum Property: Sendable {
        case category(Set<Unicode.GeneralCategory>)
        case binary(@Sendable (Unicode.Scalar.Properties) -> Bool)
        case any, assigned, ascii
        /// Everything a negated set inside a class (`[\D]`, `[\P{L}]`) leaves out.
        case within(RegexSet)
    }

    var ranges: [ClosedRange<UInt32>] = []
    var properties: [(Property, negated: Bool)] = []
    var negated = false

    func contains(_ value: UInt32) -> Bool {
        var found = false
        for range in ranges where range.contains(value) {
            found = true
            break
        }
        if !found, !properties.isEmpty, let scalar = Unicode.Scalar(value) {
            for (property, negated) in properties where Self.has(scalar, property, value) != negated
            {
                found = true
                break
            }
        }
        return found != negated
    }

    private static func has(_ scalar: Unicode.Scalar, _ property: Property, _ value: UInt32)
        -> Bool
    {
        switch property {
        case .category(let categories): categories.contains(scalar.properties.generalCategory)
        case .binary(let test): test(scalar.properties)
        case .any: true
        case .assigned: scalar.properties.generalCategory != .unassigned
        case .ascii: scalar.isASCII
        case .within(let set): set.contains(value)
        }
    }

    mutating func add(_ other: RegexSet) {
        if other.negated {
            properties.append((.within(other), false))
        } else {
            ranges += other.ranges
            properties += other.properties
        }
    }

    static func of(_ ranges: [ClosedRange<UInt32>], negated: Bool = false) -> RegexSet {
        RegexSet(ranges: ranges, properties: [], negated: negated)
    }

    static let digit = of([0x30...0x39])
    static let word = of([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// ECMA-262's WhiteSpace and LineTerminator.
    static let space = RegexSet(
        ranges: [
            0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A,
            0x2028...0x2029, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000,
            0xFEFF...0xFEFF,
        ], properties: [(.category([.spaceSeparator]), false)], negated: false)
    /// `.`: anything but a line terminator.
    static let dot = of([0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029], negated: true)
}
