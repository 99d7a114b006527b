/// What a write requires of the item it replaces or deletes: compare-and-swap.
///
/// Read an item's `etag`, change what you read, and write it back expecting that etag:
/// if anyone changed the item meanwhile, nothing is written and the error says what its
/// etag is now. The check and the write are one step: in a directory the check is made
/// under the store's lock right before the rename, on etcd it is a compare in the write's
/// transaction.
///
/// ```swift
/// let item = try store.item("tea")!
/// try store.put("tea", ["title": "Make green tea"], expecting: .etag(item.etag))
/// try store.put("bread", ["title": "Buy bread"], expecting: .absent)
/// ```
public enum ItemExpectation: Sendable, Hashable, CustomStringConvertible {
    /// The item exists, and its etag is this one.
    case etag(String)
    /// There is no such item.
    case absent

    public var description: String {
        switch self {
        case .etag(let etag): "etag \(etag)"
        case .absent: "absent"
        }
    }

    /// Checks `outcome`, what the store holds for `id` now.
    ///
    /// - Throws: `StoreError` with code `.changed` when it does not hold (the message
    ///   gives the etag now), or the item's own error when it is not a valid item.
    func check(_ outcome: ItemFile.Outcome, id: String, file: String) throws(StoreError) {
        let refusal: String
        switch (self, outcome) {
        case (.absent, .missing): return
        case (.etag(let expected), .item(let item)):
            if item.etag == expected { return }
            refusal = "changed since etag \(expected): its etag is now \(item.etag)"
        case (.etag(let expected), .missing):
            refusal = "was deleted since etag \(expected)"
        case (.absent, .item(let item)):
            refusal = "exists already (its etag is \(item.etag))"
        case (_, .invalid(let error)):
            throw error
        }
        throw StoreError(
            code: .changed, message: "\(refusal); nothing was written", file: file, id: id)
    }
}
