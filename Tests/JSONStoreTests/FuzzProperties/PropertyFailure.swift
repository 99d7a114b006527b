/// A property of a fuzz target that did not hold, and which.
struct PropertyFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Throws `PropertyFailure(message)` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String = "a property failed")
    throws(PropertyFailure)
{
    if !condition { throw PropertyFailure(message()) }
}
