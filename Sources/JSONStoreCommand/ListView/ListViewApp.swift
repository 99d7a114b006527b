import Dispatch
import FoundationEssentials
import Glibc
import JSONStore

/// The live list view on a terminal.
///
/// A thin driver: it feeds the model keys, changes and states, does the `Action`s the
/// model asks for (observe again, edit, create, delete, read a file), and draws through
/// one `RenderScheduler`. Everything runs on the main actor: store changes and state
/// arrive there through the library's main-actor observation (the reading and diffing
/// happened on the store's own queue), keys and signals too. The app lives until the
/// process exits, held by its input source and signal handlers.
@MainActor
final class ListViewApp {
    var model: ListModel
    var screen: Screen
    let terminal: TerminalSession
    let store: JSONStore
    let environment: [String: String]
    /// The command as typed: its conditions, with the model's sort, make the query.
    private let list: ListCommand
    private var tokens: [ObservationToken] = []
    /// The observation of the results, replaced when the sort changes.
    private var results: ObservationToken?
    /// The observation of `f`'s counts, while they are shown.
    private var counts: ObservationToken?
    private var input: DispatchSourceRead?
    private var scheduler: RenderScheduler?
    /// The item whose history is being read for the pane.
    private var historyLoading: String?
    /// The terminal's size, read at start and on each SIGWINCH rather than every frame.
    private var size = TerminalSession.size()

    static func start(
        _ store: JSONStore, _ settings: ListCommand, color: Bool, environment: [String: String]
    ) {
        ListViewApp(store: store, settings: settings, color: color, environment: environment).run()
    }

    private init(
        store: JSONStore, settings: ListCommand, color: Bool, environment: [String: String]
    ) {
        model = ListModel(
            storePath: store.path, requestedColumns: settings.columns, sort: settings.sort,
            scope: settings.conditions)
        screen = Screen(color: color)
        terminal = TerminalSession()
        self.store = store
        self.environment = environment
        list = settings
    }

    private func run() {
        scheduler = RenderScheduler { [unowned self] in render() }
        Signals.handle([SIGINT, SIGTERM, SIGHUP], on: .main) { _ in
            MainActor.assumeIsolated { () -> Void in self.quit() }
        }
        Signals.handle([SIGWINCH], on: .main) { _ in MainActor.assumeIsolated { self.resized() } }
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { MainActor.assumeIsolated { self.readKeys() } }
        input.resume()
        self.input = input
        observeResults(warn: true)
        if let countBy = list.countBy {
            // `--count-by F`: the counts view `f F` opens, live; Esc goes to the list.
            model.openCounts(countBy.field.text)
            observeCounts(countBy)
        }
        drawFirstScreenEarly()
        tokens.append(
            store.observeState { [weak self] state in
                guard let self else { return }
                model.setState(state, now: ViewClock.now())
                requestRender()
            })
        scheduler?.drawNow()
    }

    /// Observes the results in the model's order; the first time, warns in the footer
    /// about fields no item has.
    private func observeResults(warn: Bool) {
        let list = listAsShown
        results?.invalidate()
        var warned = !warn
        results = store.observe(list.query, policy: list.policy, members: list.members) {
            [weak self] change in
            guard let self else { return }
            if !warned, case .initial(let results) = change {
                warned = true
                self.list.warnAboutUnknownFields(results, in: store) { [weak self] warnings in
                    for warning in warnings { self?.model.tell(warning) }
                    self?.requestRender()
                }
            }
            model.apply(change, now: ViewClock.now(), clock: ViewClock.timeOfDay())
            buildSearchIndex()
            readFile()
            loadHistory()
            requestRender()
        }
    }

    /// The command's list in the order the view shows now.
    private var listAsShown: ListCommand {
        var list = self.list
        list.sort = model.sort
        return list
    }

    /// Draws a first screen while the whole store loads (off the main queue): in id order
    /// with no conditions the store's first ids; in any other order or with conditions,
    /// the first rows as the start cache knows the store, each read from its file.
    private func drawFirstScreenEarly() {
        let (store, count, query, sort) = (store, size.height, listAsShown.query, model.sort)
        DispatchQueue.global(qos: .userInitiated).async {
            guard let items = try? store._firstItems(count, of: query) else { return }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    // Sorted otherwise since it was asked for: those rows are not first.
                    guard self.model.sort == sort else { return }
                    self.model.showPreview(items)
                    self.requestRender()
                }
            }
        }
    }

    func resized() {
        size = TerminalSession.size()
        screen.invalidate()
        scheduler?.drawNow()
    }

    private func readKeys() {
        guard let bytes = terminal.readInput() else { quit() }  // the terminal is gone
        guard !bytes.isEmpty else { return }
        let page = ListModel.page(height: size.height)
        for key in Key.decode(bytes) {
            switch model.handle(key, page: page) {
            case .none: break
            case .quit: quit()
            case .sort:
                model.sortStarted(now: ViewClock.now())
                observeResults(warn: false)
            case .edit(let file): edit(file)
            case .create(let id, let template): create(id, template)
            case .delete(let id): delete(id)
            case .deleteMany(let ids): delete(ids)
            case .editMany(let ids): edit(ids)
            case .copy(let text): copy(text)
            case .undo(let id): undo(id)
            case .observeCounts(let field): observeCounts(field)
            case .resolve(let id, let choice): resolve(id, choice)
            case .mergeConflict(let id, let version): merge(id, version)
            case .stopCounts:
                counts?.invalidate()
                counts = nil
            }
        }
        buildSearchIndex()
        readFile()
        loadHistory()
        requestRender()
    }

    /// Observes the command's items grouped by `field`: the library keeps the counts per
    /// change, and the model shows them.
    private func observeCounts(_ field: String) {
        guard let countBy = try? CountBy(field, sort: []) else { return }
        observeCounts(countBy)
    }

    private func observeCounts(_ countBy: CountBy) {
        counts?.invalidate()
        counts = store.observe(countBy.grouped(list.query)) { [weak self] change in
            guard let self else { return }
            switch change {
            case .initial(let results), .update(let results, _):
                model.showCounts(countBy.counts(results))
                requestRender()
            case .error: break
            }
        }
    }

    /// Reads the file the detail view shows, when it is opened or a change touched it: one
    /// file, within the store's size limit, opened so it cannot block or escape.
    private func readFile() {
        guard let name = model.fileToRead else { return }
        let outcome: Result<[UInt8]?, StoreError>
        do {
            outcome = .success(try store._fileBytes(named: name))
        } catch {
            outcome = .failure(error)
        }
        model.showFile(name, outcome)
    }

    /// Reads the history the pane shows off the main queue, when the selection moved to
    /// another item or a change touched it; the model takes it on the main queue.
    private func loadHistory() {
        guard let (id, asOf) = model.historyToLoad, historyLoading != id else { return }
        historyLoading = id
        let store = store
        DispatchQueue.global(qos: .userInitiated).async {
            let outcome = Result { () throws(StoreError) in
                try store.history(of: id, limit: HistoryPane.limit)
            }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.historyLoading = nil
                    self.model.showHistory(id, outcome, asOf: asOf)
                    self.loadHistory()  // the selection may have moved meanwhile
                    self.requestRender()
                }
            }
        }
    }

    /// Builds the search index off the main queue once the user opens the `/` filter (the
    /// first key typed after `/` rarely comes before it is ready): a store that is only
    /// watched does not hold every row's text twice. The model takes it on the main queue.
    private func buildSearchIndex() {
        guard model.editingFilter, let (results, table) = model.searchIndexToBuild() else { return }
        DispatchQueue.global(qos: .utility).async {
            let index = SearchIndex(results, table: table)
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    self.model.install(index, for: results.version)
                }
            }
        }
    }

    func requestRender() { scheduler?.request() }

    /// Draws a frame; returns when the next must be drawn by itself: a highlight running
    /// out, or the spinner's next step while the store loads or resyncs.
    private func render() -> Double? {
        let now = ViewClock.now()
        var next = model.expireHighlights(now: now)
        let frame = model.frame(width: size.width, height: size.height, now: now)
        let bytes = screen.update(to: frame)
        if !bytes.isEmpty { Output.write(fd: STDOUT_FILENO, bytes) }
        if model.status.isBusy { next = min(next ?? .infinity, now + 0.1) }
        return next
    }

    private func quit() -> Never {
        results?.invalidate()
        for token in tokens { token.invalidate() }
        terminal.restore()
        exit(ExitCode.success.rawValue)
    }
}
