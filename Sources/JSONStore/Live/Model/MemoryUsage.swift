/// What a live store holds in memory, by what holds it (`jsonstore doctor --memory`).
///
/// Measured where it can be: each object's heap block is counted by what `malloc` gave it
/// (`malloc_usable_size` and its 8-byte header), a block shared by many items once. A
/// string's block, an array's storage and an invalid file's error are worked out from
/// their layout, as Swift hides where they begin.
package struct MemoryUsage: Sendable, Equatable {
    /// The items in the newest version of the store.
    package var items = 0
    /// Their files' bytes, as the files have them.
    package var fileBytes = 0
    /// The chunks that hold those bytes, the unused end of each included.
    package var bytes = 0
    /// The store's ordered index: the tree whose leaves hold each id with its item's fields.
    package var index = 0
    /// Ids too long to be kept inside the index (over 15 bytes), each kept once.
    package var ids = 0
    /// Why files are invalid, for those that are.
    package var invalid = 0
    /// The journal's newest entry of each id, as the history's recorder keeps them.
    package var heads = 0
    /// The observers' results that are trees of their own (results of every item in id
    /// order share the store's index, and cost nothing here).
    package var results = 0

    package init() {}

    /// Everything counted.
    package var total: Int { bytes + index + ids + invalid + heads + results }

    /// Counts the items, bytes, index, ids and invalid files of `snapshot`.
    mutating func add(_ snapshot: StoreSnapshot) {
        index += Self.nodes(of: snapshot.entries)
        var chunks = Set<ObjectIdentifier>()
        var strings = Set<UnsafeRawPointer>()
        snapshot.entries.forEach { id, entry in
            ids += Self.outOfLine(id.string, seen: &strings)
            if let error = entry.error {
                invalid += MemoryLayout<StoreError>.stride + error.message.utf8.count
            }
            guard let item = entry.item(id: id.string) else { return }
            items += 1
            fileBytes += Int(item.bytes.count)
            if chunks.insert(ObjectIdentifier(item.bytes.chunk)).inserted {
                bytes += Self.block(item.bytes.chunk)
            }
        }
    }

    /// Counts the nodes of a results tree of its own.
    mutating func addResults<Key, Value>(_ tree: SortedTree<Key, Value>) {
        results += Self.nodes(of: tree)
    }

    /// The blocks of a tree's nodes and of the arrays in them (the elements' own
    /// out-of-line parts not included).
    static func nodes<Key, Value>(of tree: SortedTree<Key, Value>) -> Int {
        var total = 0
        tree.forEachNode { node in
            total += block(node) + array(node.elements) + array(node.children)
            total += array(node.lastKeys) + array(node.ends)
        }
        return total
    }

    /// The block of an array's storage: a 32-byte header and its capacity, as `malloc`
    /// rounds it (to 16, with an 8-byte header of its own); none for an empty one.
    static func array<Element>(_ array: [Element]) -> Int {
        guard array.capacity > 0 else { return 0 }
        return (32 + array.capacity * MemoryLayout<Element>.stride + 8 + 15) / 16 * 16
    }

    /// The heap block of `object`, its header included.
    static func block(_ object: AnyObject) -> Int {
        systemMallocUsableSize(Unmanaged.passUnretained(object).toOpaque()) + 8
    }

    /// The block of `string` when it has one of its own (more than 15 bytes of UTF-8), the
    /// first time its bytes are seen: a native string's header is 32 bytes, and `malloc`
    /// rounds to 16 with an 8-byte header of its own.
    static func outOfLine(_ string: String, seen: inout Set<UnsafeRawPointer>) -> Int {
        let count = string.utf8.count
        guard count > 15,
            let start = string.utf8.withContiguousStorageIfAvailable({
                $0.baseAddress.map(UnsafeRawPointer.init)
            }) ?? nil,
            seen.insert(start).inserted
        else { return 0 }
        return (32 + count + 1 + 8 + 15) / 16 * 16
    }
}

// `malloc_usable_size` is in <malloc.h>, which Swift's Glibc module does not export.
@_silgen_name("malloc_usable_size")
private func systemMallocUsableSize(_ block: UnsafeMutableRawPointer) -> Int
