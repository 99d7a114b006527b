import JSONStore

/// What Enter shows in the list view: one file of the store as it is on disk, valid or
/// not, read by the app (the model does no I/O) and read again when a change touches it.
struct FileView {
    /// The file's name in the store directory.
    let name: String
    /// The item the file holds, if the row was an item.
    let id: String?
    /// How far it is scrolled.
    private(set) var scroll = 0
    /// The file's lines, escaped for the terminal; `nil` until read.
    private(set) var lines: [String]?
    /// Why it could not be read (not a regular file, removed), if so.
    private(set) var problem: String?

    init(name: String, id: String?) {
        self.name = name
        self.id = id
    }

    /// A key while the file is shown; returns whether it closes the view.
    mutating func handle(_ key: Key, page: Int) -> Bool {
        switch key {
        case .escape, .character("q"), .enter: return true
        case .up, .character("k"): scroll = max(0, scroll - 1)
        case .down, .character("j"): scroll += 1
        case .pageUp: scroll = max(0, scroll - page)
        case .pageDown: scroll += page
        case .home, .character("g"): scroll = 0
        default: break
        }
        return false
    }

    /// Takes what reading the file gave: its bytes, `nil` when it is gone, or an error.
    mutating func show(_ outcome: Result<[UInt8]?, StoreError>) {
        switch outcome {
        case .success(let bytes?):
            let text = String(decoding: bytes, as: UTF8.self)
            var split = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                Display.escaped(String($0))
            }
            if split.last == "" { split.removeLast() }  // the final newline ends a line
            lines = split
            problem = nil
        case .success(nil):
            lines = []
            problem = "the file was removed"
        case .failure(let error):
            lines = []
            problem = error.description
        }
    }
}
