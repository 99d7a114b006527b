import JSONStore

/// What `jsonstore doctor` prints: aligned lines of what it found, then each problem with
/// its fix, and the exit status they make.
struct DoctorReport {
    private var problems: [(problem: String, fix: String)] = []

    /// `name` and what was found, aligned.
    func line(_ name: String, _ text: String) {
        Output.line(name.padding(toLength: 10) + text)
    }

    mutating func problem(_ problem: String, fix: String) {
        problems.append((problem, fix))
    }

    /// Prints the problems; throws exit status 1 if there are any.
    func finish() throws {
        guard !problems.isEmpty else { return Output.line("no problems found") }
        for (problem, fix) in problems {
            Output.line("problem: " + problem)
            Output.line("  fix: " + fix)
        }
        throw ExitCode.failure
    }
}

extension String {
    /// The text and at least one space, padded to `length` characters: aligned columns.
    func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
