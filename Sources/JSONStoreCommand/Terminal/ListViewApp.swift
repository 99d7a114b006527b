import Dispatch
import Glibc
import JSONStore

/// The live list view on a terminal.
///
/// Everything runs on the main actor: store changes and state arrive there through the
/// library's main-actor observation (the reading and diffing happened on the store's own
/// queue), keys and signals too, and frames are drawn there, at most about 60 a second
/// however fast changes come.
@MainActor
final class ListViewApp {
    private static var current: ListViewApp?

    private var model: ListModel
    private var screen: Screen
    private let terminal: TerminalSession
    private let store: JSONStore
    private let environment: [String: String]
    /// The command as typed: its conditions, with the model's sort, make the query.
    private let list: ListCommand
    private var tokens: [ObservationToken] = []
    /// The observation of the results, replaced when the sort changes.
    private var results: ObservationToken?
    private var input: DispatchSourceRead?
    private var spinner: DispatchSourceTimer?
    private var renderScheduled = false
    /// The terminal's size, read at start and on each SIGWINCH rather than every frame.
    private var size = TerminalSession.size()
    private var lastRender = 0.0

    static func start(
        _ store: JSONStore, _ settings: ListCommand, color: Bool, environment: [String: String]
    ) {
        let app = ListViewApp(
            store: store, settings: settings, color: color, environment: environment)
        current = app
        app.run()
    }

    private init(
        store: JSONStore, settings: ListCommand, color: Bool, environment: [String: String]
    ) {
        model = ListModel(
            storePath: store.path, requestedColumns: settings.columns, sort: settings.sort)
        screen = Screen(color: color)
        terminal = TerminalSession()
        self.store = store
        self.environment = environment
        list = settings
    }

    private func run() {
        Signals.handle([SIGINT, SIGTERM, SIGHUP], on: .main) { _ in
            MainActor.assumeIsolated { if let app = ListViewApp.current { app.quit() } }
        }
        Signals.handle([SIGWINCH], on: .main) { _ in
            MainActor.assumeIsolated { ListViewApp.current?.resized() }
        }
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        input.setEventHandler { MainActor.assumeIsolated { ListViewApp.current?.readKeys() } }
        input.resume()
        self.input = input
        observeResults(warn: true)
        tokens.append(
            store.observeState { [weak self] state in
                guard let self else { return }
                model.setState(state, now: ViewClock.now())
                updateSpinner()
                requestRender()
            })
        render()
    }

    /// Observes the results in the model's order; the first time, warns in the footer
    /// about fields no item has.
    private func observeResults(warn: Bool) {
        var list = self.list
        list.sort = model.sort
        results?.invalidate()
        var warned = !warn
        results = store.observe(list.query, policy: list.policy, members: list.members) {
            [weak self] change in
            guard let self else { return }
            if !warned, case .initial(let results) = change {
                warned = true
                self.list.warnAboutUnknownFields(results, in: store) { [weak self] warnings in
                    self?.model.notice = warnings.joined(separator: "; ")
                    self?.requestRender()
                }
            }
            model.apply(change, now: ViewClock.now(), clock: ViewClock.timeOfDay())
            buildSearchIndex()
            readFile()
            requestRender()
        }
    }

    private func resized() {
        size = TerminalSession.size()
        screen.invalidate()
        render()
    }

    private func readKeys() {
        guard let bytes = terminal.readInput() else { quit() }  // the terminal is gone
        guard !bytes.isEmpty else { return }
        let page = ListModel.page(height: size.height)
        for key in Key.decode(bytes) {
            switch model.handle(key, page: page) {
            case .none: break
            case .quit: quit()
            case .sort: observeResults(warn: false)
            case .edit(let file): edit(file)
            case .create(let id, let template): create(id, template)
            case .delete(let id): delete(id)
            }
        }
        buildSearchIndex()
        readFile()
        requestRender()
    }

    /// Opens the file `name` of the store in the editor, the terminal restored around it
    /// as on exit. The main queue waits meanwhile: changes merge in the store's pipeline
    /// and arrive as one update afterwards (the save among them).
    private func edit(_ name: String) {
        let command = ExternalEditor.command(environment: environment)
        if store._isRemote {
            // No file to open: a copy, put back with the etag it started from.
            let id = String(name.dropLast(5))
            let edit = CopyEdit(store: store, id: id) { paths in
                self.terminal.suspend()
                defer { self.terminal.resume() }
                return ExternalEditor.run(command, on: paths)
            }
            if let notice = edit.run() { model.notice = notice }
            size = TerminalSession.size()
            screen.invalidate()
            return render()
        }
        terminal.suspend()
        let outcome = ExternalEditor.run(command, on: store.path + "/" + name)
        terminal.resume()
        size = TerminalSession.size()
        screen.invalidate()
        switch outcome {
        case .failure(let error):
            model.notice = "could not start the editor (\(Display.escaped(command))): \(error)"
        case .success(let status) where status != 0:
            model.notice = "the editor (\(Display.escaped(command))) exited with status \(status)"
        case .success:
            break
        }
        render()
    }

    /// Writes the new item `id` from `template` and opens it in the editor; if the
    /// template comes back unchanged, the item is removed again, so `n` then quitting the
    /// editor leaves nothing behind.
    private func create(_ id: String, _ template: JSONObject) {
        let name = id + ".json"
        let written: [UInt8]?
        do {
            try store.put(id, template)
            written = try store._fileBytes(named: name)
        } catch {
            model.notice = "\(error)"
            return render()
        }
        edit(name)
        if let written, (try? store._fileBytes(named: name)) == written {
            _ = try? store.delete(id)
            model.notice = "\(Display.escaped(id)) not created: the template was left as it was"
            render()
        }
    }

    /// Deletes the item `id`, after the footer's y/N.
    private func delete(_ id: String) {
        do {
            if try !store.delete(id) { model.notice = CommandFailure.noItem(id, in: store.path) }
        } catch {
            model.notice = "\(error)"
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

    /// Builds the search index off the main queue once the user opens the `/` filter (the
    /// first key typed after `/` rarely comes before it is ready): a store that is only
    /// watched does not hold every row's text twice. The model takes it on the main queue.
    private func buildSearchIndex() {
        guard model.editingFilter, let (results, table) = model.searchIndexToBuild() else { return }
        DispatchQueue.global(qos: .utility).async {
            let index = SearchIndex(results, table: table)
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    ListViewApp.current?.model.install(index, for: results.version)
                }
            }
        }
    }

    /// Draws soon: at once if the last frame is older than 1/60 s, else when it will be.
    private func requestRender() {
        guard !renderScheduled else { return }
        renderScheduled = true
        let wait = max(0, lastRender + 1.0 / 60 - ViewClock.now())
        DispatchQueue.main.asyncAfter(deadline: .now() + wait) {
            MainActor.assumeIsolated {
                guard let app = ListViewApp.current else { return }
                app.renderScheduled = false
                app.render()
            }
        }
    }

    private func render() {
        let now = ViewClock.now()
        let next = model.expireHighlights(now: now)
        let frame = model.frame(width: size.width, height: size.height, now: now)
        let bytes = screen.update(to: frame)
        if !bytes.isEmpty { Output.write(fd: STDOUT_FILENO, bytes) }
        lastRender = now
        if let next {  // redraw when a highlight runs out
            DispatchQueue.main.asyncAfter(deadline: .now() + max(0.01, next - now)) {
                MainActor.assumeIsolated { ListViewApp.current?.requestRender() }
            }
        }
    }

    /// The spinner ticks about 10 times a second while the store loads or resyncs.
    private func updateSpinner() {
        if model.busySince != nil, spinner == nil {
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now() + 0.1, repeating: 0.1)
            timer.setEventHandler {
                MainActor.assumeIsolated { ListViewApp.current?.requestRender() }
            }
            timer.resume()
            spinner = timer
        } else if model.busySince == nil, let timer = spinner {
            timer.cancel()
            spinner = nil
        }
    }

    private func quit() -> Never {
        results?.invalidate()
        for token in tokens { token.invalidate() }
        terminal.restore()
        exit(ExitCode.success.rawValue)
    }
}
