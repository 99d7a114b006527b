/// A compiled schema: its nodes (each subschema once, `$ref`s resolved to node numbers,
/// so cycles are plain numbers), the schema resources they belong to, and the dynamic
/// anchors of each resource for `$dynamicRef`.
struct SchemaProgram: Sendable {
    /// One subschema: a boolean schema, or the keywords of an object schema.
    struct Node: Sendable {
        /// `true` or `false` for a boolean schema; `nil` for an object.
        var boolean: Bool?
        var keywords: [SchemaKeyword] = []
        /// The schema resource it belongs to, an index in `resources`.
        var resource: Int
        /// Where it is in its resource.
        var pointer: JSONPointer
    }

    var nodes: [Node] = []
    /// Each schema resource's URI (the document's, or an embedded `$id`'s).
    var resources: [URIReference] = []
    /// Each resource's `$dynamicAnchor`s: name → node.
    var dynamicAnchors: [[String: Int]] = []
    /// The schema's own node.
    var root = 0
    /// Whether a subschema has `unevaluatedProperties`: only then does a check note which
    /// members each keyword evaluated (a set of names an object, made for nothing else).
    var tracksProperties = true
    /// The dynamic scope a check starts in: the root's resource. Shared by every check, so
    /// starting one allocates nothing.
    var rootScope: [Int] = []

    /// Where `node` is, for an error: its pointer in the root's resource
    /// (`/properties/priority`), or its resource's URI and the pointer in it.
    func location(of node: Int) -> String {
        let node = nodes[node]
        let pointer = node.pointer.description
        if node.resource == nodes[root].resource { return pointer }
        return resources[node.resource].description + "#" + pointer
    }
}
