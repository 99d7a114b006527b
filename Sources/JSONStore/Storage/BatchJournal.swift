import Glibc

/// The record of a batch being applied, so that a batch is all or nothing on disk once
/// the store is next opened or written: a writer killed halfway through its renames is
/// finished by the next one (roll forward).
///
/// A batch of two or more files writes the journal, `.jsonstore-batch`, once every new
/// file is staged and synced and before it renames or removes anything; it removes the
/// journal when it is done. Each step records the identity of its target as it was
/// (device, inode, size, modification time, or absent), so a recovery never undoes an edit
/// someone made after the crash: a step whose target changed since is dropped.
enum BatchJournal {
    static let fileName = ".jsonstore-batch"

    /// One step of a batch, applied in order: removals first, then renames.
    struct Step: Equatable {
        enum Action: Equatable {
            /// Rename the staged temp file over `name`.
            case rename(temp: String)
            /// Remove `name`.
            case remove
        }

        let action: Action
        let name: String
        /// `name`'s identity when the batch was committed: "-" if absent.
        let identity: String
    }

    /// The identity of `name` in `directory`: "-" when absent.
    static func identity(of name: String, in directory: FileDescriptor) -> String {
        guard let status = try? directory.linkStatus(of: name) else { return "-" }
        return "\(status.device):\(status.inode):\(status.size):"
            + "\(status.modificationTime.tv_sec).\(status.modificationTime.tv_nsec)"
    }

    /// Writes the journal of a batch that removes `removing` and renames each temp file
    /// over its name, atomically and durably, each target's identity taken now.
    static func write(
        removing: [String], renaming: [(temp: String, name: String)], in directory: FileDescriptor
    ) throws(Errno) {
        let steps =
            removing.map {
                Step(action: .remove, name: $0, identity: identity(of: $0, in: directory))
            }
            + renaming.map {
                Step(
                    action: .rename(temp: $0.temp), name: $0.name,
                    identity: identity(of: $0.name, in: directory))
            }
        var text = "jsonstore batch 1\n"
        for step in steps {
            switch step.action {
            case .rename(let temp): text += "rename\t\(temp)\t\(step.name)\t\(step.identity)\n"
            case .remove: text += "remove\t\(step.name)\t\(step.identity)\n"
            }
        }
        let temp = try AtomicFile.stage(Array(text.utf8), permissions: 0o644, in: directory)
        do {
            try directory.rename(temp, to: fileName)
            try directory.sync()
        } catch {
            try? directory.unlink(temp)
            throw error
        }
    }

    /// Removes the journal once the batch is done.
    static func remove(in directory: FileDescriptor) {
        try? directory.unlink(fileName)
    }

    /// The steps of the journal in `directory`, or `nil` if there is none (or it is not
    /// one of ours, in which case it is left alone).
    static func read(in directory: FileDescriptor) -> [Step]? {
        guard
            let fd = try? FileDescriptor.open(
                fileName, relativeTo: directory, flags: O_RDONLY | O_NOFOLLOW),
            let bytes = try? fd.closeAfter({ fd throws(Errno) in
                try fd.readAll(sizeHint: 4096, limit: 64 << 20)
            })
        else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == "jsonstore batch 1" else { return nil }
        var steps: [Step] = []
        for line in lines.dropFirst() where !line.isEmpty {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(
                String.init)
            switch (fields.first, fields.count) {
            case ("rename", 4) where AtomicFile.isTemporaryName(fields[1]):
                steps.append(
                    Step(action: .rename(temp: fields[1]), name: fields[2], identity: fields[3]))
            case ("remove", 3):
                steps.append(Step(action: .remove, name: fields[1], identity: fields[2]))
            default:
                return nil  // a journal cut short cannot be: it is renamed into place whole
            }
        }
        return steps
    }

    /// Whether a journal is there: one `fstatat`, for every open of a store.
    static func exists(in directory: FileDescriptor) -> Bool {
        (try? directory.linkStatus(of: fileName)) != nil
    }

    /// Finishes the batch a killed writer left, if any: every step whose target is as the
    /// batch found it is done again (a step already done has changed its target, or used
    /// up its temp file), then the journal goes. Call it holding the store's lock.
    ///
    /// - Returns: whether there was a batch to finish.
    @discardableResult
    static func recover(in directory: FileDescriptor) throws(Errno) -> Bool {
        guard let steps = read(in: directory) else { return false }
        for step in steps where identity(of: step.name, in: directory) == step.identity {
            switch step.action {
            case .remove:
                do { try directory.unlink(step.name) } catch .noSuchFile {}
            case .rename(let temp):
                guard (try? directory.linkStatus(of: temp)) != nil else { continue }
                try directory.rename(temp, to: step.name)
            }
        }
        // Temp files of steps not done (their target changed since) are dropped.
        for case .rename(let temp) in steps.map(\.action) { try? directory.unlink(temp) }
        if !steps.isEmpty { try directory.sync() }  // the steps are durable before the journal goes
        try directory.unlink(fileName)
        try directory.sync()
        return true
    }
}
