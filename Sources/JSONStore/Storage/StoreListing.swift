/// A store directory's listing sorted out: the ids of item files, and the names that are
/// invalid by their name alone (an invalid id, bytes that are not UTF-8), by their bytes.
struct StoreListing {
    /// The ids of the item files, sorted by their bytes: read in this order, the files'
    /// outcomes come out in the store's order and need no sort of their own.
    var ids: [String] = []
    var badNames: [UTF8Key: InvalidFile] = [:]
    /// The names of other versions kept of items (`ConflictName`).
    var conflictNames: [String] = []

    init(_ names: [DirectoryScan.Name], path: String) {
        var unsorted = UTF8Key.SortBuffer()
        for name in names { add(name, path: path, to: &unsorted) }
        ids = unsorted.sorted()
    }

    /// The listing of `directory`, made as its names are read: no array of every name is
    /// held beside the ids, and no string is made of a plain item file's name
    /// (`EntryName.plainItemID`) until the ids are handed out in order.
    init(scanning directory: FileDescriptor, path: String) throws(Errno) {
        var listing = StoreListing([], path: path)
        var unsorted = UTF8Key.SortBuffer()
        try DirectoryScan.forEachName(in: directory) { name in
            let plain = name.withMemoryRebound(to: UInt8.self) { bytes -> Bool in
                // The name without its NUL.
                let name = bytes.last == 0 ? bytes.dropLast() : bytes[...]
                guard let id = EntryName.plainItemID(UnsafeBufferPointer(rebasing: name)) else {
                    return false
                }
                unsorted.append(id)
                return true
            }
            if !plain { listing.add(.init(name), path: path, to: &unsorted) }
        }
        listing.ids = unsorted.sorted()
        self = listing
    }

    private mutating func add(
        _ name: DirectoryScan.Name, path: String, to unsorted: inout UTF8Key.SortBuffer
    ) {
        switch name {
        case .text(let text):
            switch EntryName(text) {
            case .ignored: return
            case .conflict: conflictNames.append(text)
            case .item(let id): unsorted.append(id)
            case .invalid(let id, let reason):
                badNames[UTF8Key(text)] = .badName(text, id: id, reason: reason, path: path)
            }
        case .notUTF8(let bytes):
            if let file = InvalidFile.undecodableName(bytes, path: path) {
                badNames[UTF8Key(file.name)] = file
            }
        }
    }
}
