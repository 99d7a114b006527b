/// The 2020-12 vocabularies a schema resource uses: all of them unless its `$schema` is a
/// meta-schema whose `$vocabulary` leaves some out. Keywords of a vocabulary left out
/// are ignored, as unknown keywords are.
struct SchemaVocabularies: OptionSet, Hashable, Sendable {
    let rawValue: Int

    static let applicator = SchemaVocabularies(rawValue: 1 << 0)
    static let unevaluated = SchemaVocabularies(rawValue: 1 << 1)
    static let validation = SchemaVocabularies(rawValue: 1 << 2)
    /// `format` as an assertion (the format-assertion vocabulary, or asked for).
    static let formatAssertion = SchemaVocabularies(rawValue: 1 << 3)

    /// The standard dialect's: `format` an annotation only.
    static let standard: SchemaVocabularies = [.applicator, .unevaluated, .validation]

    static let base = "https://json-schema.org/draft/2020-12/vocab/"

    /// A vocabulary a meta-schema requires that is not known here.
    struct Unknown: Error {
        let uri: String
    }

    /// The vocabularies a meta-schema's `$vocabulary` names.
    static func declared(by vocabulary: JSONObject) throws(Unknown) -> SchemaVocabularies {
        var found: SchemaVocabularies = []
        for member in vocabulary {
            switch member.key {
            case base + "core", base + "meta-data", base + "content", base + "format-annotation":
                break
            case base + "applicator": found.insert(.applicator)
            case base + "unevaluated": found.insert(.unevaluated)
            case base + "validation": found.insert(.validation)
            case base + "format-assertion": found.insert(.formatAssertion)
            default:
                if member.value == .bool(true) { throw Unknown(uri: member.key) }
            }
        }
        return found
    }
}
