import JSONStore

struct Todo: Codable, Identifiable, Sendable {
    var id: String
    var title: String
    var status: String
    var priority: Int
}

let store = try JSONStore(directory: "data")
let open = Query.all.filter { (todo: Todo) in todo.status != "done" }

for await change in store.changes(Todo.self, open) {  // ends when the loop does
    if case .initial(let todos) = change {
        print("\(todos.count) open todos")
        break
    }
}
