/// Everything a store holds at one moment: its items sorted by id (by the ids' UTF-8
/// bytes), and the files that are not valid items.
public struct StoreContents: Sendable {
    /// The valid items, sorted by id.
    public var items: [Item]
    /// The files that could not be read as items, sorted by name.
    public var invalid: [InvalidFile]
}
