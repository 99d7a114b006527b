/// The schema a store's reads and writes apply, read again each time from where the store
/// keeps it and compiled again only when its bytes changed.
///
/// A schema that is there but broken (a hand edit that is not JSON, not a schema) is a
/// problem to report; what is in force then is the last valid one this cache compiled,
/// if any (a command that starts on a broken schema has none, and applies none).
package final class SchemaCache: Sendable {
    /// What the store's schema is now.
    package struct State: Sendable {
        /// The schema in force: the document's, or the last valid one when it is broken.
        package var schema: StoreSchema?
        /// Why the document is not the schema in force, when it is there but broken.
        package var problem: StoreError?

        /// The schema in force when it is enforced (`strict`): the one reads apply.
        package var enforced: StoreSchema? { schema?.isEnforced == true ? schema : nil }
    }

    private struct Compiled: Sendable {
        var fingerprint: Fingerprint
        var result: Result<StoreSchema, StoreError>
    }

    /// The last document compiled, and the last valid schema.
    private let last = Locked<(compiled: Compiled?, valid: StoreSchema?)>((nil, nil))

    /// The last valid schema compiled.
    var lastValid: StoreSchema? { last.withLock { $0.valid } }

    /// The state for the document `bytes` (`nil`: there is none) read from `file`.
    func state(of bytes: [UInt8]?, file: String) -> State {
        guard let bytes else { return State() }
        let fingerprint = Fingerprint(bytes)
        let known = last.withLock { last in
            last.compiled?.fingerprint == fingerprint ? last.compiled?.result : nil
        }
        let result: Result<StoreSchema, StoreError>
        if let known {
            result = known
        } else {
            // Compiled outside the lock: a large schema takes a while, and a race only
            // compiles it twice.
            result = Result { () throws(StoreError) in try StoreSchema(bytes: bytes, file: file) }
        }
        return last.withLock { last in
            last.compiled = Compiled(fingerprint: fingerprint, result: result)
            switch result {
            case .success(let schema):
                last.valid = schema
                return State(schema: schema)
            case .failure(let error):
                return State(schema: last.valid, problem: error)
            }
        }
    }
}
