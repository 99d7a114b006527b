import JSONStore

struct Todo: Codable, Identifiable, Sendable {
    var id: String
    var title: String
    var status: String
    var priority: Int
}

let store = try JSONStore(directory: "data")
let open = Query.all.filter { (todo: Todo) in todo.status != "done" }

// One code caught, inside a function that throws(StoreError): see below for why.
func keepItem(_ id: String) throws(StoreError) {
    do {
        try store.resolve(id, keeping: .item)  // the item as it is: its conflicts end
    } catch StoreError.Code.notFound {
        print("\(id) has no conflicts")
    }
}
try keepItem("water-plants")

for await change in store.changes(Todo.self, open) {  // ends when the loop does
    if case .initial(let todos) = change {
        print("\(todos.count) open todos")
        break
    }
}
