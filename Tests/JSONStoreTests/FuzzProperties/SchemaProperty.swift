#if !FUZZING
    @testable import JSONStore
#endif

// The schema validator's property, shared by the libFuzzer target (Tests/Fuzz/SchemaFuzz.swift)
// and by FuzzCorpusTests, which replays the checked-in corpus under swift test.
//
// An input is a schema and an instance, split at the first NUL byte (none: the schema is
// checked against itself). A schema that is refused says why, at a line and column inside
// it; one that compiles checks the instance the same way twice, `isValid` agrees with
// `validate`, and each violation names a place the instance has and a keyword location
// (a pointer, after its resource's URI when that is not the root's).

/// Checks the validator's properties on `bytes`.
///
/// - Throws: `PropertyFailure` saying which property failed.
func schemaProperty(_ bytes: UnsafeBufferPointer<UInt8>) throws(PropertyFailure) {
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let text = Array(bytes[..<split])
    let instanceText = split < bytes.count ? Array(bytes[(split + 1)...]) : text
    let schema: JSONSchema
    do {
        schema = try JSONSchema(json: text, file: "schema.json")
    } catch {
        try require(error.code == .invalidSchema, "refused with \(error.code)")
        try require(!error.message.isEmpty, "refused without a reason")
        try require(error.file == "schema.json", "the error names no file")
        if let line = error.line {
            let lines = text.count { $0 == 0x0A } + 1
            try require(line >= 1 && line <= lines, "line \(line) outside \(lines) lines")
            try require((error.column ?? 0) >= 1, "no column on line \(line)")
        }
        return
    }
    guard let instance = try? JSONReader(maxDepth: 64, maxSize: 1 << 20).read(instanceText)
    else { return }
    let violations = schema.validate(instance)
    try require(schema.validate(instance) == violations, "two checks disagree")
    try require(
        schema.isValid(instance) == violations.isEmpty,
        "isValid says \(schema.isValid(instance)), validate found \(violations.count)")
    for violation in violations {
        try require(
            resolves(violation.instancePath, in: instance),
            "\(violation.instancePath) is not a place in the instance")
        // A pointer in the root's resource, or in an embedded one after its URI
        // (`https://example.com/item#/type`).
        let pointer =
            violation.keywordLocation.split(
                separator: "#", maxSplits: 1, omittingEmptySubsequences: false
            ).last.map(String.init) ?? ""
        try require(
            pointer.isEmpty || pointer.hasPrefix("/"),
            "keyword location \(violation.keywordLocation)")
        try require(!violation.message.isEmpty, "a violation without a message")
    }
}

/// Whether the JSON Pointer `pointer` names a value inside `value`.
private func resolves(_ pointer: String, in value: JSONValue) -> Bool {
    guard !pointer.isEmpty else { return true }
    guard pointer.hasPrefix("/") else { return false }
    var current = value
    for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
        let name = token.replacing("~1", with: "/").replacing("~0", with: "~")
        switch current {
        case .object(let object):
            guard let next = object[String(name)] else { return false }
            current = next
        case .array(let array):
            guard let index = Int(name), array.indices.contains(index) else { return false }
            current = array[index]
        default:
            return false
        }
    }
    return true
}
