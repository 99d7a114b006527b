import JSONStore

print("placeholder")
