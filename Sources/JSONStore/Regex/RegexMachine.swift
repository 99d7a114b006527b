/// Runs a `RegexProgram` over a text's code points by backtracking, its choices and undo
/// records on a heap stack, every instruction counted against a budget shared by the
/// whole search (lookarounds included): past it the search gives up.
struct RegexMachine {
    let text: [UInt32]
    private(set) var steps = 0
    let budget: Int

    struct OutOfSteps: Error {}

    init(text: [UInt32], budget: Int) {
        self.text = text
        self.budget = budget
    }

    private enum Frame {
        case branch(pc: Int, position: Int)
        case slot(Int, Int)
        case register(Int, Int)
    }

    /// Whether `program` matches at `start`, ending anywhere (or at `end` when given);
    /// `slots` gets the captures of the match.
    mutating func run(
        _ program: RegexProgram, at start: Int, endingAt end: Int? = nil, slots: inout [Int]
    ) throws(OutOfSteps) -> Bool {
        var stack: [Frame] = []
        var registers = [Int](repeating: -1, count: program.registers)
        var pc = 0
        var position = start
        while true {
            steps += 1
            if steps > budget { throw OutOfSteps() }
            var ok = true
            switch program.instructions[pc] {
            case .scalar(let value):
                if position < text.count && text[position] == value {
                    position += 1
                    pc += 1
                } else {
                    ok = false
                }
            case .set(let index):
                if position < text.count && program.sets[index].contains(text[position]) {
                    position += 1
                    pc += 1
                } else {
                    ok = false
                }
            case .split(let first, let second):
                stack.append(.branch(pc: second, position: position))
                pc = first
            case .jump(let target):
                pc = target
            case .save(let slot):
                stack.append(.slot(slot, slots[slot]))
                slots[slot] = position
                pc += 1
            case .mark(let register):
                stack.append(.register(register, registers[register]))
                registers[register] = position
                pc += 1
            case .progress(let register):
                ok = registers[register] != position
                pc += 1
            case .assert(let assertion):
                ok = holds(assertion, at: position)
                pc += 1
            case .look(let index, let ahead, let negated):
                var inner = slots
                let found = try look(program.lookarounds[index], ahead: ahead, at: position, &inner)
                ok = found != negated
                if ok && found && !negated {
                    // Captures made inside a positive lookaround are kept.
                    for k in slots.indices where inner[k] != slots[k] {
                        stack.append(.slot(k, slots[k]))
                        slots[k] = inner[k]
                    }
                }
                pc += 1
            case .backreference(let group):
                let (from, to) = (slots[2 * group], slots[2 * group + 1])
                if from >= 0, to >= from {
                    let length = to - from
                    if position + length <= text.count
                        && text[from..<to].elementsEqual(text[position..<position + length])
                    {
                        position += length
                    } else {
                        ok = false
                    }
                }
                pc += 1
            case .match:
                if end == nil || position == end { return true }
                ok = false
            }
            if ok { continue }
            // Back to the last choice, undoing what was recorded since.
            var resumed = false
            while let frame = stack.popLast() {
                switch frame {
                case .slot(let slot, let old): slots[slot] = old
                case .register(let register, let old): registers[register] = old
                case .branch(let target, let at):
                    (pc, position) = (target, at)
                    resumed = true
                }
                if resumed { break }
            }
            if !resumed { return false }
        }
    }

    private mutating func look(
        _ program: RegexProgram, ahead: Bool, at position: Int, _ slots: inout [Int]
    ) throws(OutOfSteps) -> Bool {
        if ahead { return try run(program, at: position, slots: &slots) }
        // Behind: a match of the lookbehind that ends here, the nearest start first.
        var start = position
        while start >= 0 {
            var attempt = slots
            if try run(program, at: start, endingAt: position, slots: &attempt) {
                slots = attempt
                return true
            }
            start -= 1
        }
        return false
    }

    private func holds(_ assertion: RegexAssertion, at position: Int) -> Bool {
        switch assertion {
        case .start: return position == 0
        case .end: return position == text.count
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && RegexSet.word.contains(text[position - 1])
            let after = position < text.count && RegexSet.word.contains(text[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }
}
