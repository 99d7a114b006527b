/// One keyword of a compiled schema, its subschemas as node numbers in the program
/// (`SchemaProgram.nodes`), its values checked and converted once.
///
/// Keywords that depend on their siblings carry what they need of them
/// (`additionalProperties` the names and patterns `properties` and `patternProperties`
/// take, `items` where `prefixItems` ends, `contains` its bounds), so each is evaluated on
/// its own; `unevaluatedItems` and `unevaluatedProperties` come last in their node.
enum SchemaKeyword: Sendable {
    // Core
    case ref(Int)
    /// The node the reference resolves to, and the anchor's name when that node holds a
    /// `$dynamicAnchor` of it: then the outermost resource in the dynamic scope with one
    /// takes its place.
    case dynamicRef(Int, anchor: String?)

    // Applicators
    case allOf([Int])
    case anyOf([Int])
    case oneOf([Int])
    case not(Int)
    case condition(if: Int, then: Int?, else: Int?)
    case dependentSchemas([(name: String, node: Int)])
    case prefixItems([Int])
    case items(Int, from: Int)
    case contains(Int, min: Int, max: Int?)
    case properties(SchemaNames)
    case patternProperties([(pattern: SchemaPattern, node: Int)])
    case additionalProperties(Int, named: SchemaNames, patterns: [SchemaPattern])
    case propertyNames(Int)
    case unevaluatedItems(Int)
    case unevaluatedProperties(Int)

    // Validation
    case type([SchemaType])
    case enumeration(SchemaEnum)
    case constant(JSONValue)
    case multipleOf(JSONNumber)
    case maximum(JSONNumber)
    case exclusiveMaximum(JSONNumber)
    case minimum(JSONNumber)
    case exclusiveMinimum(JSONNumber)
    case maxLength(Int)
    case minLength(Int)
    case pattern(SchemaPattern)
    case maxItems(Int)
    case minItems(Int)
    case uniqueItems
    case maxProperties(Int)
    case minProperties(Int)
    case required([String])
    case dependentRequired([(name: String, required: [String])])

    // Format, asserted only when asked
    case format(SchemaFormat)

    /// The keyword's name in the schema, for error locations.
    var name: String {
        switch self {
        case .ref: "$ref"
        case .dynamicRef: "$dynamicRef"
        case .allOf: "allOf"
        case .anyOf: "anyOf"
        case .oneOf: "oneOf"
        case .not: "not"
        case .condition: "if"
        case .dependentSchemas: "dependentSchemas"
        case .prefixItems: "prefixItems"
        case .items: "items"
        case .contains: "contains"
        case .properties: "properties"
        case .patternProperties: "patternProperties"
        case .additionalProperties: "additionalProperties"
        case .propertyNames: "propertyNames"
        case .unevaluatedItems: "unevaluatedItems"
        case .unevaluatedProperties: "unevaluatedProperties"
        case .type: "type"
        case .enumeration: "enum"
        case .constant: "const"
        case .multipleOf: "multipleOf"
        case .maximum: "maximum"
        case .exclusiveMaximum: "exclusiveMaximum"
        case .minimum: "minimum"
        case .exclusiveMinimum: "exclusiveMinimum"
        case .maxLength: "maxLength"
        case .minLength: "minLength"
        case .pattern: "pattern"
        case .maxItems: "maxItems"
        case .minItems: "minItems"
        case .uniqueItems: "uniqueItems"
        case .maxProperties: "maxProperties"
        case .minProperties: "minProperties"
        case .required: "required"
        case .dependentRequired: "dependentRequired"
        case .format: "format"
        }
    }
}

/// A JSON type as `type` names it; `integer` is a number with no fraction.
enum SchemaType: String, Sendable, CaseIterable {
    case null, boolean, object, array, number, string, integer
}
