/// What a write through the store passes when the store's schema is enforced: the value
/// it leaves must obey the schema, except where the value it replaces broke it already in
/// the same way (ratcheting, as Kubernetes does for its resources): an item made invalid
/// by a hand edit can still have another member set, and stays flagged.
enum SchemaGate {
    /// The error refusing the write of `written` (the members a write leaves, as `bytes`)
    /// over `current`, or `nil` when it may be written.
    static func refusal(
        of written: JSONObject, bytes: [UInt8], id: String, replacing current: ItemFile.Outcome,
        schema: StoreSchema, file: String
    ) -> StoreError? {
        let new = Item(id: id, object: written, fingerprint: Fingerprint(bytes))
        guard !schema.schema.isValid(StoreSchema.checked(new)) else { return nil }
        // Not located: the bytes are the write's, in no file a person can open.
        var violations = schema.violations(of: new)
        if case .item(let old) = current {
            violations = ratcheted(
                violations, old: schema.violations(of: old), oldValue: StoreSchema.checked(old),
                newValue: StoreSchema.checked(new))
        }
        guard !violations.isEmpty else { return nil }
        var error = StoreSchema.error(violations, file: file, id: id)
        error.message = "refused, the item would break the schema: " + error.message
        return error
    }

    /// The violations of `new` that block a write: those the value it replaces did not
    /// have. A violation is the old one when it is at the same place, by the same keyword,
    /// saying the same thing, about a value the write left as it was (a container, whose
    /// members may have changed, by the first three alone: a missing `required` member
    /// blocks nothing when it was missing before).
    static func ratcheted(
        _ new: [SchemaViolation], old: [SchemaViolation], oldValue: JSONValue,
        newValue: JSONValue
    ) -> [SchemaViolation] {
        guard !old.isEmpty else { return new }
        struct Said: Hashable {
            var path: String
            var keyword: String
            var message: String
        }
        let before = Set(
            old.map {
                Said(path: $0.instancePath, keyword: $0.keywordLocation, message: $0.message)
            })
        return new.filter { violation in
            let said = Said(
                path: violation.instancePath, keyword: violation.keywordLocation,
                message: violation.message)
            guard before.contains(said) else { return true }
            guard let pointer = JSONPointer(parsing: Substring(violation.instancePath)) else {
                return true
            }
            let (was, now) = (pointer.value(in: oldValue), pointer.value(in: newValue))
            switch now {
            case .object?, .array?: return false
            default: return was != now
            }
        }
    }
}
