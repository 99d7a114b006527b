import JSONStore

/// `jsonstore list`: the items as a table, JSON, or live.
struct ListCommand: Command {
    static let configuration = CommandConfiguration(
        name: "list", abstract: "print the items; --follow keeps the list live",
        discussion: """
            Prints the items: on a terminal as a table fitted to its width (long values cut \
            with …), the id and the items' most common fields, or --columns; to a pipe or a \
            file as tab-separated values, whole, with a header line (-o picks the format).

            Keys in the list view (? shows them): q or Ctrl-C quit, ↑ ↓ j k move, PgUp \
            PgDn, g G top and bottom, Enter shows the row's file as it is (Esc or q back), \
            Space marks the row, / filters the rows by text and by conditions as --where \
            (status=done priority>2; Esc clears marks, then the filter), s sorts by the next \
            column, S reverses the order, c picks the columns, p shows the row's JSON beside \
            the list, f counts a field's values live (Enter filters by one), e edits the \
            row's file in $VISUAL or $EDITOR (else vi), or the marked items as one \
            document, n creates an item from the selected one's members and edits it, d \
            deletes the item or the marked ones (after y), y copies the ids (OSC 52).
            """,
        options: [
            .flag(
                "--follow",
                help: """
                    keep following: on a terminal, a live list view (q quits); piped, the listing \
                    then one line per change (ADDED, MODIFIED, DELETED, INVALID, CONFLICT, and \
                    RESOLVED when an invalid file or a conflict ends); with -o json or ndjson, one \
                    JSON object per change (NDJSON)
                    """),
            .option(
                "--output", "-o", value: "FORMAT",
                help: """
                    table (the default on a terminal), tsv (elsewhere: whole values, \
                    tab-separated), json (an array of the items, each with "id"), ndjson (one \
                    item per line) or ids (one id per line, for xargs)
                    """,
                choices: ListFormat.allCases.map(\.rawValue)),
            .flag("--json", help: "the same as -o json"),
            .flag("--no-headers", help: "no line of column names (table and tsv)"),
            .option(
                "--where", value: "COND",
                help: """
                    only items where COND holds: FIELD=VALUE, FIELD!=VALUE, FIELD<VALUE (<=, >, \
                    >=: numbers as numbers, text by bytes), FIELD~TEXT (contains, case ignored), \
                    FIELD (present), !FIELD (absent); FIELD may be a dotted path (owner.name); an \
                    array matches when any element does; repeat to narrow
                    """,
                repeats: true),
            .option(
                "--sort", value: "[-]F,...",
                help: "sort by these fields in turn (- for descending), ties by id; default: id",
                repeats: true),
            .option(
                "--count-by", value: "FIELD",
                help: """
                    print each value of FIELD with how many items have it (after --where), \
                    in value order (--sort -FIELD reverses it; --sort count or -count orders \
                    by the counts); with --follow on a terminal, the list view's counts, \
                    live; with --follow --json, a "counts" event first and whenever a count \
                    changes, and nothing else
                    """),
            .option(
                "--columns", value: "F,G,...",
                help: "the columns after the id (default: the most common fields)"),
            .option(
                "--poll", value: "SECONDS",
                help: "watch by polling every SECONDS (network file systems)"),
            .option(
                "--since", value: "REVISION",
                help: """
                    with --follow --json: resume from a revision an earlier stream gave (its \
                    "revision"); the first event is "resumed" and the updates after it are \
                    relative to the items at REVISION, else "reset" and a fresh "initial"
                    """),
            .option(
                "--fields", value: "F,G,...",
                help: """
                    with --follow: hear only of these members (dotted paths reach nested ones): \
                    an item entering or leaving, or one of them changing; other edits bring no \
                    update
                    """),
            .option(
                "--throttle", value: "SECONDS",
                help: """
                    with --follow: at most one update every SECONDS; changes meanwhile merge, \
                    and the last state always comes
                    """),
            .option(
                "--coalesce", value: "WINDOW[,CAP]",
                help: """
                    with --follow: changes within WINDOW seconds of one another merge into one \
                    update, none waiting longer than CAP (default 5 x WINDOW)
                    """),
            .option(
                "--bookmarks", value: "SECONDS",
                help: """
                    with --follow --json: while nothing changes, a "bookmark" event with the \
                    current revision every SECONDS (default 10; 0 for none)
                    """),
        ],
        globals: ["--dir", "--store", "--color"])

    var follow: Bool
    /// The output format, `nil` for a table on a terminal and TSV elsewhere.
    var format: ListFormat?
    var headers: Bool
    /// The `--where` conditions, all of which an item must meet.
    var conditions: [Condition] = []
    /// The `--sort` keys, in order; empty for by id.
    var sort: [SortField] = []
    /// The columns asked for, `nil` for the most common fields.
    var columns: [String]?
    /// The polling interval, `nil` to watch with inotify.
    var poll: Double?
    /// The revision the stream resumes from, if any.
    var since: StoreRevision?
    /// The seconds between bookmarks while nothing changes; 0 for none.
    var bookmarks = 10.0
    /// How often `--follow` is told: `--throttle`, `--coalesce`, else every batch.
    var policy = DeliveryPolicy.everyBatch
    /// The members `--follow` hears of (`--fields`), `nil` for all.
    var members: [String]?
    /// `--count-by`: counts per value instead of the items.
    var countBy: CountBy?

    init(_ arguments: Arguments) throws(UsageError) {
        try arguments.expectNoPositionals()
        follow = arguments.has("--follow")
        headers = !arguments.has("--no-headers")
        format = try arguments.choice("--output").flatMap(ListFormat.init(rawValue:))
        if arguments.has("--json") {
            guard format == nil || format == .json else {
                throw UsageError(
                    "--json is -o json; it cannot go with -o \(format!.rawValue)", command: "list")
            }
            format = .json
        }
        for text in arguments.all("--where") { conditions.append(try Condition(parsing: text)) }
        for text in arguments.all("--sort") { sort += try SortField.parse(text) }
        if let text = arguments.value("--columns") {
            let names = text.split(separator: ",").map {
                String(
                    $0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
                )
            }
            .filter { !$0.isEmpty }
            guard !names.isEmpty else {
                throw UsageError("--columns takes F,G,...", command: "list")
            }
            columns = names
        }
        poll = try arguments.seconds("--poll")
        since = arguments.value("--since").map(StoreRevision.init)
        if let text = arguments.value("--bookmarks") {
            guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
                throw UsageError(
                    "--bookmarks takes a number of seconds (0 for none), not '\(Display.escaped(text))'",
                    command: "list")
            }
            bookmarks = seconds
        }
        policy = try Self.policy(arguments)
        if let text = arguments.value("--fields") {
            let names = text.split(separator: ",").map { $0.filter { !$0.isWhitespace } }
                .filter { !$0.isEmpty }
            guard follow, !names.isEmpty else {
                throw UsageError(
                    follow ? "--fields takes F,G,..." : "--fields goes with --follow",
                    command: "list")
            }
            members = names
        }
        if policy != .everyBatch && !follow {
            throw UsageError("--throttle and --coalesce go with --follow", command: "list")
        }
        let streams = follow && (format == .json || format == .ndjson)
        for name in ["--since", "--bookmarks"] where arguments.value(name) != nil && !streams {
            throw UsageError("\(name) goes with --follow --json (the stream)", command: "list")
        }
        if let field = arguments.value("--count-by") {
            try checkCountBy(arguments, streams: streams)
            countBy = try CountBy(field, sort: sort)
            sort = []
        }
    }

    /// Refuses what `--count-by` cannot go with.
    private func checkCountBy(_ arguments: Arguments, streams: Bool) throws(UsageError) {
        if follow && !streams && format != nil && format != .table {
            throw Self.countsFollowedOffTerminal
        }
        if format == .ids {
            throw UsageError("--count-by prints values and counts, not ids", command: "list")
        }
        for name in ["--columns", "--fields", "--since"] where arguments.value(name) != nil {
            throw UsageError("\(name) does not go with --count-by", command: "list")
        }
    }

    /// `--count-by` with `--follow` is the list view's counts (`f`) on a terminal, the
    /// stream of counts with `--json`, and nothing else.
    static let countsFollowedOffTerminal = UsageError(
        "--count-by with --follow is the counts view on a terminal, else a stream of counts: add --json",
        command: "list")

    /// The library query: every condition, then the sort keys.
    var query: Query {
        let conditions = self.conditions
        let filtered =
            conditions.isEmpty
            ? Query.all : Query.all.filter { item in conditions.allSatisfy { $0.matches(item) } }
        return SortField.sorted(filtered, by: sort)
    }

    /// The warnings for `--where` conditions that look like a mistyped operator.
    var operatorWarnings: [String] { conditions.compactMap(\.nearMiss) }

    /// Every field the options name, with the option that named it.
    var namedFields: [(path: FieldPath, option: String)] {
        conditions.map { ($0.field, "--where") } + sort.map { ($0.field, "--sort") }
            + (columns ?? []).map { (FieldPath($0), "--columns") }
            + (countBy.map { [($0.field, "--count-by")] } ?? [])
    }
}
