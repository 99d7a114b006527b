/// The help texts.
enum Help {
    static let overview = """
        jsonstore: a directory of JSON files, one item per file, watched live.

        usage: jsonstore [--dir DIR] [--color WHEN] COMMAND [ARGUMENTS]

        The store is DIR, else $JSONSTORE_DIR, else ./data.

        commands:
          list [--follow] [--json] [--sort [-]FIELD] [--where FIELD=VALUE]...
               [--columns F,G,...] [--poll SECONDS]
                                   print the items; --follow keeps the list live
          get ID [--json]          print one item
          put ID [FILE|-]          replace an item with the JSON object in FILE or stdin
          set ID FIELD=STRING | FIELD:=JSON ...
                                   change members (creates the item if missing)
          delete ID...             delete items
          check                    validate every file; exit 1 if any is invalid
          demo [--interval SECONDS] [--count N]
                                   every interval, replace the demo items with N new ones

        options:
          --dir DIR                the store directory
          --color auto|always|never
                                   colour on a terminal (auto honours NO_COLOR and TERM=dumb)
          --help                   this text; COMMAND --help for one command
          --version                the version

        exit status: 0 success, 1 failure (the reason on stderr), 64 usage error.

        """

    static let commands: [String: String] = [
        "list": """
            usage: jsonstore list [--follow] [--json] [--sort [-]FIELD] [--where FIELD=VALUE]...
                                  [--columns F,G,...] [--poll SECONDS] [--color WHEN]

            Prints the items as a table fitted to the terminal (80 columns when not a terminal).

              --json             a JSON array of the items, each with "id"
              --follow           keep following: on a terminal, a live list view (q quits);
                                 piped, one line per change (ADDED, MODIFIED, DELETED, INVALID)
              --follow --json    one JSON object per change (NDJSON), flushed per line
              --sort [-]FIELD    sort by FIELD (descending with -), ties by id; default: id
              --where FIELD=VALUE  only items whose FIELD equals VALUE (repeat to narrow)
              --columns F,G,...  the columns after the id (default: the most common fields)
              --poll SECONDS     watch by polling every SECONDS (network file systems)

            Keys in the list view: q or Ctrl-C quit, ↑ ↓ j k move, PgUp PgDn, g G top and
            bottom, Enter shows the item (Esc or q back), / filters the rows (Esc clears).

            """,
        "get": """
            usage: jsonstore get ID [--json]

            Prints the item ID, as "field: value" lines, or as JSON with --json.

            """,
        "put": """
            usage: jsonstore put ID [FILE|-]

            Replaces (or creates) the item ID with the JSON object in FILE, or on stdin when
            FILE is - or missing. The object is validated first; the write is atomic.

            """,
        "set": """
            usage: jsonstore set ID FIELD=STRING | FIELD:=JSON ...

            Changes members of the item ID, creating it if missing: FIELD=text sets a string,
            FIELD:=json sets any JSON value (FIELD:=3, FIELD:=true, FIELD:='["a"]').
            The read-modify-write holds the store's lock, so no concurrent update is lost.

            """,
        "delete": """
            usage: jsonstore delete ID...

            Deletes the items. Every id is checked before any file is touched; a missing item
            is reported and makes the exit status 1.

            """,
        "check": """
            usage: jsonstore check

            Validates every file of the store and lists the problems (file:line:column:
            reason). Exit status 1 if there are any.

            """,
        "demo": """
            usage: jsonstore demo [--interval SECONDS] [--count N]

            Every interval (default 2 s), deletes the demo items and adds N (default 10) new
            ones with random ids, for watching a list view change live. Only items marked
            "demo": true are deleted; other items are left alone. Ctrl-C stops it.

            """,
    ]
}
