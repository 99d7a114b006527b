import JSONStore

struct Todo: Codable, Identifiable, Sendable {
    var id: String
    var title: String
    var status: String
    var priority: Int
}

let store = try JSONStore(directory: "data")

try store.put(Todo(id: "tea", title: "Make tea", status: "todo", priority: 2))
try store.update("tea", as: Todo.self) { $0.status = "done" }  // under the store's lock
print(try store.item("tea", as: Todo.self)?.status ?? "-")  // done
print(try store.item("tea")?["title"] ?? "-")  // untyped: "Make tea"

let contents = try store.load()
for item in contents.items.prefix(3) {  // sorted by id (by its bytes)
    print(item.id, item["title"]?.stringValue ?? "")
}
for invalid in contents.invalid {  // e.g. data/x.json:3:8: invalid literal…
    print(invalid.error)
}

try store.write { tx in  // a batch under one lock
    try tx.delete("tea")
    try tx.put("coffee", ["title": "Make coffee", "status": "todo", "priority": 1])
}
print(try store.item("coffee")?["title"] ?? "-")  // "Make coffee"
try store.delete("coffee")  // the sample store as it was
