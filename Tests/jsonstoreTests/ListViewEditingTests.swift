import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// The list view's `e`, `n` and `d`: what the model asks the app to do, and the footer's
/// questions. (The editor itself runs in scripts/e2e-terminal.)
@Suite("Editing from the list view")
struct ListViewEditingTests {
    func footer(_ model: inout ListModel) -> String {
        model.frame(width: 100, height: 12, now: 1).text[11]
    }

    func type(_ text: String, into model: inout ListModel) {
        for key in Key.decode(Array(text.utf8)) { _ = model.handle(key, page: 9) }
    }

    @Test("e opens the selected row's file, an item's or an invalid file's")
    func edit() {
        var (_, snapshot) = makeResults(3)
        snapshot.invalid[UTF8Key("bad.json")] = InvalidFile(
            name: "bad.json", id: "bad", error: StoreError(code: .invalidJSON, message: "broken"))
        var model = liveModel(Results<Item>.initial(.all, snapshot, coder: .items))
        _ = model.handle(.down, page: 9)
        #expect(model.handle(.character("e"), page: 9) == .edit(file: "item-000001.json"))
        _ = model.handle(.end, page: 9)
        #expect(model.handle(.character("e"), page: 9) == .edit(file: "bad.json"))
        #expect(footer(&model).contains("e edit  n new  d delete"))
    }

    @Test("d asks y/N in the footer; only y deletes")
    func delete() {
        let (results, _) = makeResults(3)
        var model = liveModel(results)
        #expect(model.handle(.character("d"), page: 9) == .none)
        #expect(footer(&model).contains("delete item-000000? y/N"))
        #expect(model.handle(.character("n"), page: 9) == .none)
        #expect(model.prompt == nil && footer(&model).contains("q quit"))
        _ = model.handle(.down, page: 9)
        _ = model.handle(.character("d"), page: 9)
        #expect(model.handle(.enter, page: 9) == .none, "Enter is no")
        _ = model.handle(.character("d"), page: 9)
        #expect(model.handle(.character("y"), page: 9) == .delete(id: "item-000001"))
    }

    @Test("n asks for an id and creates the item from the selected item's members, emptied")
    func create() {
        let (results, _) = makeResults(3)
        var model = liveModel(results)
        _ = model.handle(.character("n"), page: 9)
        type("frezh", into: &model)
        _ = model.handle(.backspace, page: 9)
        _ = model.handle(.backspace, page: 9)
        type("sh", into: &model)
        #expect(footer(&model).contains("new item's id: fresh▏  Enter create  Esc cancel"))
        #expect(
            model.handle(.enter, page: 9) == .create(id: "fresh", template: ["title": "", "n": 0]))
        #expect(model.prompt == nil)
    }

    @Test("after n creates an item, the selection moves to it when it arrives")
    func createSelects() {
        var (results, snapshot) = makeResults(3)
        var model = liveModel(results)
        _ = model.handle(.down, page: 9)
        _ = model.handle(.character("n"), page: 9)
        type("item-000001b", into: &model)
        #expect(
            model.handle(.enter, page: 9)
                == .create(id: "item-000001b", template: ["title": "", "n": 0]))
        #expect(model.selectedID == "item-000001", "nothing written yet")
        let change = insert(results, &snapshot, id: "item-000001b")
        if case .update(let next, _) = change { results = next }
        model.apply(change, now: 1, clock: "12:00:01")
        #expect(model.selectedID == "item-000001b")
        // Only once: an edit of the item later does not take the selection back.
        _ = model.handle(.up, page: 9)
        model.apply(
            modify(results, &snapshot, id: "item-000001b", title: "x"), now: 2, clock: "12:00:02")
        #expect(model.selectedID == "item-000001")
    }

    @Test("n refuses an id in use or not valid, in the footer; Esc cancels")
    func createRefused() {
        let (results, _) = makeResults(3)
        var model = liveModel(results)
        _ = model.handle(.character("n"), page: 9)
        type("item-000002", into: &model)
        #expect(model.handle(.enter, page: 9) == .none)
        #expect(footer(&model).contains("\"item-000002\" exists already"))
        _ = model.handle(.character("n"), page: 9)
        type(".hidden", into: &model)
        #expect(model.handle(.enter, page: 9) == .none)
        #expect(footer(&model).contains("invalid id"))
        _ = model.handle(.character("n"), page: 9)
        type("x", into: &model)
        #expect(model.handle(.escape, page: 9) == .none)
        #expect(model.prompt == nil)
    }

    @Test("the template empties every member by its type; with no item, a title")
    func template() throws {
        let object = try JSONValue(
            parsing:
                #"{"id": "a", "t": "x", "n": 3, "b": true, "a": [1], "o": {"k": 1}, "z": null}"#)
        let item = Item(id: "a", object: object.objectValue!, fingerprint: Fingerprint([]))
        #expect(
            ListModel.template(from: item) == [
                "t": "", "n": 0, "b": false, "a": [], "o": .object([:]), "z": .null,
            ])
        #expect(ListModel.template(from: nil) == ["title": ""])
    }
}
