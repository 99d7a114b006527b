/// A pattern compiled to instructions for `RegexMachine`, a backtracking machine whose
/// choices are kept on a heap stack (no recursion however long the text) and whose steps
/// are counted, so no pattern runs for ever.
struct RegexProgram: Sendable {
    enum Instruction: Sendable {
        case scalar(UInt32)
        case set(Int)
        /// Try `first`, and on failure `second`.
        case split(first: Int, second: Int)
        case jump(Int)
        /// Record the position in capture slot `n` (2g the start of group g, 2g+1 its end).
        case save(Int)
        case assert(RegexAssertion)
        /// Run `programs[n]` here; `ahead` or behind; succeed when it matches, or when it
        /// does not if `negated`.
        case look(Int, ahead: Bool, negated: Bool)
        case backreference(Int)
        /// Record the position in loop register `n`; fail when an iteration ends where it
        /// began (an empty iteration would loop for ever).
        case mark(Int)
        case progress(Int)
        case match
    }

    var instructions: [Instruction] = []
    var sets: [RegexSet] = []
    /// The programs of lookarounds, run by `.look`.
    var lookarounds: [RegexProgram] = []
    var slots = 2
    var registers = 0
    /// Whether every match begins at the start of the text (`^…` without alternatives).
    var anchored = false

    /// The most instructions a pattern may compile to (`a{1000}{1000}` would be a
    /// million).
    static let sizeLimit = 100_000

    init() {}

    /// Compiles `node`, with `groups` capturing groups.
    init(_ node: RegexNode, groups: Int) throws(RegexError) {
        slots = 2 * (groups + 1)
        try emit(node)
        instructions.append(.match)
        if case .sequence(let items) = node, case .assertion(.start)? = items.first {
            anchored = true
        } else if case .assertion(.start) = node {
            anchored = true
        }
    }

    private mutating func append(_ instruction: Instruction) throws(RegexError) {
        guard instructions.count < Self.sizeLimit else {
            throw RegexError(
                reason: "the pattern is too large once its repetitions are spelled out")
        }
        instructions.append(instruction)
    }

    private mutating func emit(_ node: RegexNode) throws(RegexError) {
        switch node {
        case .empty: break
        case .scalar(let value): try append(.scalar(value))
        case .set(let set):
            sets.append(set)
            try append(.set(sets.count - 1))
        case .sequence(let items):
            for item in items { try emit(item) }
        case .alternation(let branches):
            // split L1, next; L1: a; jump end; next: split L2, … ; last: z; end:
            var jumps: [Int] = []
            for (k, branch) in branches.enumerated() {
                if k < branches.count - 1 {
                    let split = instructions.count
                    try append(.split(first: split + 1, second: 0))
                    try emit(branch)
                    jumps.append(instructions.count)
                    try append(.jump(0))
                    instructions[split] = .split(first: split + 1, second: instructions.count)
                } else {
                    try emit(branch)
                }
            }
            for jump in jumps { instructions[jump] = .jump(instructions.count) }
        case .group(let inner, let capture):
            if let capture { try append(.save(2 * capture)) }
            try emit(inner)
            if let capture { try append(.save(2 * capture + 1)) }
        case .repetition(let inner, let min, let max, let greedy):
            try emitRepetition(inner, min: min, max: max, greedy: greedy)
        case .assertion(let assertion): try append(.assert(assertion))
        case .look(let inner, let ahead, let negated):
            var program = RegexProgram()
            program.slots = slots
            try program.emit(inner)
            program.instructions.append(.match)
            lookarounds.append(program)
            try append(.look(lookarounds.count - 1, ahead: ahead, negated: negated))
        case .backreference(let group): try append(.backreference(group))
        case .namedBackreference:
            throw RegexError(reason: "a named backreference was not resolved")
        }
    }

    private mutating func emitRepetition(_ inner: RegexNode, min: Int, max: Int?, greedy: Bool)
        throws(RegexError)
    {
        for _ in 0..<min { try emit(inner) }
        func choice(_ here: Int, body: Int, exit: Int) -> Instruction {
            greedy ? .split(first: body, second: exit) : .split(first: exit, second: body)
        }
        guard let max else {
            // loop: split body, exit; body: mark r; inner; progress r; jump loop; exit:
            let register = registers
            registers += 1
            let loop = instructions.count
            try append(.split(first: 0, second: 0))
            try append(.mark(register))
            try emit(inner)
            try append(.progress(register))
            try append(.jump(loop))
            instructions[loop] = choice(loop, body: loop + 1, exit: instructions.count)
            return
        }
        // Each optional copy: split body, exit; body: inner; … all exits to the end.
        var splits: [Int] = []
        for _ in min..<max {
            splits.append(instructions.count)
            try append(.split(first: 0, second: 0))
            try emit(inner)
        }
        for split in splits {
            instructions[split] = choice(split, body: split + 1, exit: instructions.count)
        }
    }
}
