import JSONStore

/// What a key does in the list and the file view, and the selection it moves: the
/// selection stays on its item as rows come and go, and the list scrolls to keep it on
/// screen. The column picker's keys are in `ListModel+Columns`, the prompts' in
/// `ListModel+Editing`.
extension ListModel {
    /// Handles a key; `page` is the number of rows on screen.
    mutating func handle(_ key: Key, page: Int) -> Action {
        if key == .interrupt { return .quit }
        notice = nil
        if picker != nil { return handlePicker(key) }
        if prompt != nil { return handlePrompt(key) }
        if let shown = detail {
            switch key {
            case .escape, .character("q"), .enter:
                detail = nil
                fileToRead = nil
            case .up, .character("k"): detail?.scroll = max(0, shown.scroll - 1)
            case .down, .character("j"): detail?.scroll = shown.scroll + 1
            case .pageUp: detail?.scroll = max(0, shown.scroll - page)
            case .pageDown: detail?.scroll = shown.scroll + page
            case .home, .character("g"): detail?.scroll = 0
            default: break
            }
            return .none
        }
        if editingFilter {
            switch key {
            case .escape:
                editingFilter = false
                filter = ""
            case .enter: editingFilter = false
            case .backspace: if !filter.isEmpty { filter.removeLast() }
            case .character(let c): filter.append(c)
            default: return .none
            }
            refilter()
            followSelection()
            return .none
        }
        switch key {
        case .character("q"): return .quit
        case .up, .character("k"): selected -= 1
        case .down, .character("j"): selected += 1
        case .pageUp: selected -= max(1, page)
        case .pageDown: selected += max(1, page)
        case .home, .character("g"): selected = 0
        case .end, .character("G"): selected = visibleCount - 1
        case .character("/"):
            editingFilter = true
            return .none
        case .character("s"): return cycleSort()
        case .character("S"): return reverseSort()
        case .character("c"):
            openPicker()
            return .none
        case .character("e"): return editSelected()
        case .character("n"):
            prompt = .newID("")
            return .none
        case .character("d"):
            if let selectedID { prompt = .delete(selectedID) }
            return .none
        case .escape:
            filter = ""
            refilter()
        case .enter:
            openSelectedFile()
            return .none
        default:
            return .none
        }
        clampSelection()
        return .none
    }

    /// Shows the selected row's file, an item's or an invalid file's; the app reads it.
    private mutating func openSelectedFile() {
        guard let (name, id) = selectedFile else { return }
        detail = FileView(name: name, id: id)
        fileToRead = name
    }

    /// The selected row's file name and item id (an invalid file may have none).
    var selectedFile: (name: String, id: String?)? {
        guard visibleCount > 0 else { return nil }
        let row = row(atVisible: selected)
        if row < results.count { return (results[row].fileName, results[row].id) }
        let file = invalidRows[row - results.count]
        return (file.name, file.id)
    }

    /// The selected item, if the row is one.
    var selectedItem: Item? {
        guard visibleCount > 0 else { return nil }
        let row = row(atVisible: selected)
        return row < results.count ? results[row] : nil
    }

    /// Keeps the selection on its item when rows come and go above it.
    mutating func followSelection() {
        if let id = selectedID, let index = results.index(ofID: id) {
            if let matches {
                if let position = matches.position(ofAscending: index) { selected = position }
            } else {
                selected = index
            }
        }
        clampSelection()
    }

    private mutating func clampSelection() {
        selected = max(0, min(selected, visibleCount - 1))
        let row = visibleCount > 0 ? row(atVisible: selected) : -1
        selectedID = row >= 0 && row < results.count ? results[row].id : nil
    }

    /// Moves the scroll position so the selection is on screen.
    mutating func scroll(page: Int) {
        if selected < top { top = selected }
        if selected >= top + page { top = selected - page + 1 }
        top = max(0, min(top, max(0, visibleCount - page)))
    }
}
