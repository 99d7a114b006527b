extension RegexParser {
    /// `{Name}` or `{Name=Value}` after `\p` or `\P`: a general category (`L`, `Lu`,
    /// `Letter`, `gc=Lu`) or a binary property (`Alphabetic`, `White_Space`, `Emoji`).
    /// Scripts (`Script=Greek`) are not known to Swift's standard library, and are refused
    /// with a reason rather than matched wrongly.
    mutating func propertyEscape() throws(RegexError) -> RegexSet {
        guard eat("{") else { throw error("\\p must be followed by {property}") }
        var text = ""
        while let c = current, c != ascii("}") {
            guard let scalar = Unicode.Scalar(c), scalar.isASCII else {
                throw error("a property name must be ASCII")
            }
            text.unicodeScalars.append(scalar)
            i += 1
        }
        guard eat("}") else { throw error("a \\p{ is not closed") }
        let parts = text.split(separator: "=", omittingEmptySubsequences: false).map(String.init)
        let property: RegexSet.Property?
        switch parts.count {
        case 1:
            property = Self.categories[parts[0]].map { .category($0) } ?? Self.binary(parts[0])
        case 2 where parts[0] == "General_Category" || parts[0] == "gc":
            property = Self.categories[parts[1]].map { .category($0) }
        case 2 where ["Script", "sc", "Script_Extensions", "scx"].contains(parts[0]):
            throw error("\\p{\(text)}: scripts are not supported")
        default:
            property = nil
        }
        guard let property else { throw error("\\p{\(text)} names no Unicode property") }
        return RegexSet(ranges: [], properties: [(property, false)], negated: false)
    }

    private static func binary(_ name: String) -> RegexSet.Property? {
        switch name {
        case "Any": return .any
        case "ASCII": return .ascii
        case "Assigned": return .assigned
        default: return binaryTests[name].map { .binary($0) }
        }
    }

    /// The binary properties Swift's `Unicode.Scalar.Properties` answers, by their long
    /// and short names.
    private static let binaryTests: [String: @Sendable (Unicode.Scalar.Properties) -> Bool] = {
        typealias Test = @Sendable (Unicode.Scalar.Properties) -> Bool
        let named: [([String], Test)] = [
            (["Alphabetic", "Alpha"], { $0.isAlphabetic }),
            (["White_Space", "space"], { $0.isWhitespace }),
            (["Uppercase", "Upper"], { $0.isUppercase }),
            (["Lowercase", "Lower"], { $0.isLowercase }),
            (["Cased"], { $0.isCased }), (["Case_Ignorable", "CI"], { $0.isCaseIgnorable }),
            (["Emoji"], { $0.isEmoji }),
            (["Emoji_Presentation", "EPres"], { $0.isEmojiPresentation }),
            (["Emoji_Modifier", "EMod"], { $0.isEmojiModifier }),
            (["Emoji_Modifier_Base", "EBase"], { $0.isEmojiModifierBase }),
            (["Math"], { $0.isMath }), (["Hex_Digit", "Hex"], { $0.isHexDigit }),
            (["ASCII_Hex_Digit", "AHex"], { $0.isASCIIHexDigit }),
            (["Ideographic", "Ideo"], { $0.isIdeographic }), (["Dash"], { $0.isDash }),
            (["Diacritic", "Dia"], { $0.isDiacritic }), (["Extender", "Ext"], { $0.isExtender }),
            (["ID_Start", "IDS"], { $0.isIDStart }), (["ID_Continue", "IDC"], { $0.isIDContinue }),
            (["XID_Start", "XIDS"], { $0.isXIDStart }),
            (["XID_Continue", "XIDC"], { $0.isXIDContinue }),
            (["Noncharacter_Code_Point", "NChar"], { $0.isNoncharacterCodePoint }),
            (["Default_Ignorable_Code_Point", "DI"], { $0.isDefaultIgnorableCodePoint }),
            (["Quotation_Mark", "QMark"], { $0.isQuotationMark }),
            (["Pattern_Syntax", "Pat_Syn"], { $0.isPatternSyntax }),
            (["Pattern_White_Space", "Pat_WS"], { $0.isPatternWhitespace }),
            (["Variation_Selector", "VS"], { $0.isVariationSelector }),
            (["Join_Control", "Join_C"], { $0.isJoinControl }), (["Radical"], { $0.isRadical }),
            (["Unified_Ideograph", "UIdeo"], { $0.isUnifiedIdeograph }),
            (["Terminal_Punctuation", "Term"], { $0.isTerminalPunctuation }),
            (["Sentence_Terminal", "STerm"], { $0.isSentenceTerminal }),
            (["Soft_Dotted", "SD"], { $0.isSoftDotted }),
            (["Deprecated", "Dep"], { $0.isDeprecated }),
            (["Bidi_Mirrored", "Bidi_M"], { $0.isBidiMirrored }),
            (["Bidi_Control", "Bidi_C"], { $0.isBidiControl }),
        ]
        var table: [String: Test] = [:]
        for (names, test) in named {
            for name in names { table[name] = test }
        }
        return table
    }()

    /// Each general category by its short and long names, the groups (`L`, `Letter`) as
    /// the categories they hold.
    private static let categories: [String: Set<Unicode.GeneralCategory>] = {
        let single: [(String, String, Unicode.GeneralCategory)] = [
            ("Lu", "Uppercase_Letter", .uppercaseLetter),
            ("Ll", "Lowercase_Letter", .lowercaseLetter),
            ("Lt", "Titlecase_Letter", .titlecaseLetter),
            ("Lm", "Modifier_Letter", .modifierLetter),
            ("Lo", "Other_Letter", .otherLetter), ("Mn", "Nonspacing_Mark", .nonspacingMark),
            ("Mc", "Spacing_Mark", .spacingMark), ("Me", "Enclosing_Mark", .enclosingMark),
            ("Nd", "Decimal_Number", .decimalNumber), ("Nl", "Letter_Number", .letterNumber),
            ("No", "Other_Number", .otherNumber),
            ("Pc", "Connector_Punctuation", .connectorPunctuation),
            ("Pd", "Dash_Punctuation", .dashPunctuation),
            ("Ps", "Open_Punctuation", .openPunctuation),
            ("Pe", "Close_Punctuation", .closePunctuation),
            ("Pi", "Initial_Punctuation", .initialPunctuation),
            ("Pf", "Final_Punctuation", .finalPunctuation),
            ("Po", "Other_Punctuation", .otherPunctuation),
            ("Sm", "Math_Symbol", .mathSymbol), ("Sc", "Currency_Symbol", .currencySymbol),
            ("Sk", "Modifier_Symbol", .modifierSymbol), ("So", "Other_Symbol", .otherSymbol),
            ("Zs", "Space_Separator", .spaceSeparator), ("Zl", "Line_Separator", .lineSeparator),
            ("Zp", "Paragraph_Separator", .paragraphSeparator), ("Cc", "Control", .control),
            ("Cf", "Format", .format), ("Cs", "Surrogate", .surrogate),
            ("Co", "Private_Use", .privateUse),
            ("Cn", "Unassigned", .unassigned),
        ]
        var table: [String: Set<Unicode.GeneralCategory>] = [:]
        for (short, long, category) in single {
            table[short] = [category]
            table[long] = [category]
        }
        let groups: [(String, String, String)] = [
            ("L", "Letter", "L"), ("LC", "Cased_Letter", "LuLlLt"), ("M", "Mark", "M"),
            ("N", "Number", "N"), ("P", "Punctuation", "P"), ("S", "Symbol", "S"),
            ("Z", "Separator", "Z"), ("C", "Other", "C"),
        ]
        for (short, long, members) in groups {
            var set: Set<Unicode.GeneralCategory> = []
            for (name, _, category) in single
            where members == String(name.prefix(1)) || members.contains(name) && members.count > 1 {
                set.insert(category)
            }
            table[short] = set
            table[long] = set
        }
        table["Control"] = [.control]
        table["cntrl"] = [.control]
        table["digit"] = [.decimalNumber]
        table["punct"] = table["P"]
        return table
    }()
}
