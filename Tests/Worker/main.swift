print("worker")
