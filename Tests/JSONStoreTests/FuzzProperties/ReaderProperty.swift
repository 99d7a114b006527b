#if !FUZZING
    @testable import JSONStore
#endif

// The JSON reader's property, shared by the libFuzzer target (Tests/Fuzz/ReaderFuzz.swift,
// built by scripts/fuzz with the library's sources as one module, -D FUZZING) and by
// FuzzCorpusTests, which replays the checked-in corpus under swift test.
//
// A valid input reads back to the same value through both writers, and the reader reads
// what the writers write; an invalid input gives an error whose offset, line and column
// lie inside the input. An object kept as its bytes (`ItemBytes`, what the store keeps of
// an item) gives the same members, and each member found without reading the others
// (`MemberScan`) is the value the reader read. The tape agrees with the reader
// (`TapeProperty.swift`), and an item decodes from its bytes as its object does.

/// Checks the reader's properties on `bytes`.
///
/// - Throws: `PropertyFailure` saying which property failed.
func readerProperty(_ bytes: UnsafeBufferPointer<UInt8>) throws(PropertyFailure) {
    let reader = JSONReader(maxDepth: 64, maxSize: 1 << 20)
    try tapeProperty(bytes, reader: reader)
    let value: JSONValue
    do {
        value = try reader.read(bytes)
    } catch {
        try require(
            error.offset >= 0 && error.offset <= bytes.count,
            "offset \(error.offset) outside \(bytes.count)")
        let newlines = bytes.prefix(error.offset).count { $0 == 0x0A }
        try require(error.line == newlines + 1, "line \(error.line), expected \(newlines + 1)")
        try require(
            error.column >= 1 && error.column <= error.offset + 1, "column \(error.column)")
        try require(!error.reason.isEmpty, "an empty reason")
        try require(
            !error.reason.unicodeScalars.contains { $0.value < 0x20 },
            "raw control character in the reason")
        return
    }
    let loose = JSONReader(maxDepth: 64, maxSize: .max)
    for written in [
        JSONWriter.compact(value), JSONWriter.pretty(value),
        JSONWriter.compact(value, escapingUnicodeLineBreaks: true),
    ] {
        guard let again = try? loose.read(written) else {
            throw PropertyFailure(
                "the writer's output does not read back: \(String(decoding: written, as: UTF8.self))"
            )
        }
        try require(again == value, "round trip changed the value")
    }
    if case .object(let object) = value { try compactItemProperty(object, bytes) }
}

/// The store's compact item of `bytes`, an object the reader read as `object`, gives that
/// object back, whole and a member at a time.
private func compactItemProperty(_ object: JSONObject, _ bytes: UnsafeBufferPointer<UInt8>)
    throws(PropertyFailure)
{
    let kept = ItemBytes(UnsafeRawBufferPointer(bytes))
    try require(kept.object == object, "the kept bytes read back as another object")
    for member in object.members {
        try require(
            kept.member(member.key) == member.value,
            "member \(member.key.debugDescription) read alone differs")
    }
    for absent in ["", "id", "\u{0}", "zz-absent"] where object[absent] == nil {
        try require(kept.member(absent) == nil, "absent member \(absent.debugDescription) found")
    }
    let item = Item(id: "x\u{2028}é", bytes: kept, fingerprint: Fingerprint([]))
    try rewriteProperty(item)
    let decoded = Result { try item.decode(as: Walked.self) }
    let expected = Result { try JSONValueDecoder().decode(Walked.self, from: .object(item.object)) }
    switch (decoded, expected) {
    case (.success(let a), .success(let b)):
        try require(a == b, "the item decodes as \(a), its object as \(b)")
    default:
        throw PropertyFailure(
            "the item's decoding disagrees with its object's: \(decoded), \(expected)")
    }
}

/// An item written straight from its bytes is what writing its object gives.
func rewriteProperty(_ item: Item) throws(PropertyFailure) {
    for strict in [false, true] {
        var compact: [UInt8] = []
        JSONWriter.appendItem(item, to: &compact, escapingUnicodeLineBreaks: strict)
        try require(
            compact == JSONWriter.compact(.object(item.object), escapingUnicodeLineBreaks: strict),
            "the compact rewrite of the bytes differs (strict: \(strict))")
        var pretty: [UInt8] = []
        JSONWriter.appendItem(item, to: &pretty, pretty: true, escapingUnicodeLineBreaks: strict)
        pretty.append(0x0A)
        try require(
            pretty == JSONWriter.pretty(.object(item.object), escapingUnicodeLineBreaks: strict),
            "the pretty rewrite of the bytes differs (strict: \(strict))")
    }
}
