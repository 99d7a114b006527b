/// The path of the entry `name` of `directory`: `directory/name`, without doubling a
/// trailing slash.
///
/// Store files are opened relative to the directory's descriptor (`openat`); a joined
/// path names a file in messages, and reaches it where no descriptor is at hand.
func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
}
