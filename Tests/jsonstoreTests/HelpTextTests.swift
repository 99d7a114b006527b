import Foundation
import Testing

@testable import JSONStoreCommand

/// The help texts and README's synopsis, against the declarations the parser reads.
@Suite("Help texts and README's synopsis")
struct HelpTextTests {
    @Test("a command's --help lists the global options that apply to it, and names the rest")
    func globalOptionsThatApply() {
        let get = Help.text(for: GetCommand.configuration)
        #expect(get.contains("--dir DIR"))
        #expect(get.contains("--store ADDRESS"))
        #expect(get.contains("--help"))
        #expect(!get.contains("--cacert FILE"), "\(get)")
        #expect(!get.contains("--color WHEN"), "\(get)")
        let words = get.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("'jsonstore --help'"))
        let list = Help.text(for: ListCommand.configuration)
        #expect(list.contains("--color WHEN"))
        let merge = Help.text(for: MergeDriverCommand.configuration)
        #expect(!merge.contains("--dir DIR"), "\(merge)")
        // The global part is a few lines, not the whole list again.
        let globals = get.components(separatedBy: "global options:\n").last ?? ""
        #expect(globals.split(separator: "\n").count <= 8, "\(globals)")
    }

    @Test("list --help names the six kinds of change line")
    func changeLineKinds() {
        let help = Help.text(for: ListCommand.configuration)
        for kind in ["ADDED", "MODIFIED", "DELETED", "INVALID", "RESOLVED", "CONFLICT"] {
            #expect(help.contains(kind), "list --help does not name \(kind)")
        }
    }

    /// README's synopsis as the declarations make it: the global options, then each
    /// command's usage line as its `--help` prints it (without `jsonstore`).
    static var synopsis: String {
        let globals = CommandLineTool.globalOptions.filter { $0.name != "--help" }
        var text =
            Help.wrap(
                words: ["jsonstore"] + globals.map { "[\($0.synopsis)]" } + ["COMMAND"],
                indent: 10) + "\n"
        for command in CommandLineTool.commands {
            let words = Array(command.configuration.usageWords.dropFirst())
            text += "  " + Help.wrap(words: words, firstColumn: 2, indent: 4) + "\n"
        }
        return text + "  --help, COMMAND --help, --version\n"
    }

    @Test("README's command synopsis is what the declarations say, option for option")
    func readmeSynopsis() throws {
        let readme = try String(
            contentsOf: checkoutRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## The command\n").last)
        let block = section.components(separatedBy: "```\n").dropFirst().first ?? ""
        #expect(block == Self.synopsis, "README's synopsis should read:\n\(Self.synopsis)")
    }
}
