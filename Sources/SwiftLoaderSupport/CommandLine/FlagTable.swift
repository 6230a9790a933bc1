/// Every flag of one executable, with the rules they all share, and the help generated from
/// their declarations.
///
/// Rules (the same for every executable, as swift-argument-parser has them):
/// - `--name VALUE` and `--name=VALUE` read the same;
/// - a flag that takes a value and is followed by nothing, by an empty value or by something
///   starting with `--` is missing its value: `--out --headless` never names a directory
///   `--headless` (a single dash is a value, so `--at -1` is refused as a negative time);
/// - a switch given a value (`--headless=yes`) is refused;
/// - each flag at most once: a repeat is a mistake, not an override;
/// - anything else starting with `-` is an unknown option; a bare word is an unexpected
///   argument.
/// Each refusal is one `UsageError` naming the flag.
package struct FlagTable<Options>: Sendable {
  package let program: String
  /// The usage line's text after `usage: `.
  package let usage: String
  /// Paragraphs before the options (blank-line separated), wrapped to `width`.
  package let summary: String
  package let flags: [Flag<Options>]
  /// Paragraphs after the options, wrapped to `width`.
  package let notes: String

  /// Columns of the generated help.
  package static var width: Int { 100 }
  /// Column where a flag's help starts.
  package static var helpColumn: Int { 23 }

  package init(
    program: String, usage: String, summary: String, flags: [Flag<Options>], notes: String = ""
  ) {
    self.program = program
    self.usage = usage
    self.summary = summary
    self.flags = flags
    self.notes = notes
    var names = Set<String>()
    for f in flags {
      for n in [f.name] + f.aliases { precondition(names.insert(n).inserted, "flag \(n) twice") }
    }
  }

  /// A usage error of this program.
  package func error(_ flag: String, _ problem: String) -> UsageError {
    UsageError(program: program, flag: flag, problem: problem)
  }

  /// Applies `arguments` (without the program's name) to `initial`; returns the result and
  /// the names of the flags given.
  package func parse(_ arguments: [String], into initial: Options) throws(UsageError) -> (
    options: Options, given: Set<String>
  ) {
    var options = initial
    var given = Set<String>()
    var i = 0
    while i < arguments.count {
      let argument = arguments[i]
      i += 1
      var typed = argument
      var inline: String? = nil
      if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
        typed = String(argument[..<eq])
        inline = String(argument[argument.index(after: eq)...])
      }
      guard let flag = flags.first(where: { $0.name == typed || $0.aliases.contains(typed) })
      else {
        if argument.hasPrefix("-") { throw error(typed, "unknown option (see --help)") }
        throw error(argument, "unexpected argument (see --help)")
      }
      guard given.insert(flag.name).inserted else { throw error(flag.name, "given twice") }
      switch flag.action {
      case .set(let set):
        guard inline == nil else { throw error(flag.name, "takes no value") }
        set(&options)
      case .parse(let parse):
        let value: String
        if let inline {
          value = inline
        } else if i < arguments.count, !arguments[i].hasPrefix("--") {
          value = arguments[i]
          i += 1
        } else {
          throw error(flag.name, "needs a value")
        }
        guard !value.isEmpty else { throw error(flag.name, "needs a value") }
        do {
          try parse(&options, value)
        } catch let problem as FlagProblem {
          throw error(flag.name, problem.message)
        } catch let usage as UsageError {
          throw usage
        } catch {
          throw self.error(flag.name, "\(error)")
        }
      }
    }
    return (options, given)
  }

  /// `usage:`, the summary, every flag with its value, help and default, then the notes.
  package var helpText: String {
    var out = "usage: \(usage)\n\n"
    out += Self.wrap(summary, indent: 0) + "\n\n"
    out += "options:\n"
    for flag in flags {
      let left = "  " + flag.name + (flag.valueName.map { " " + $0 } ?? "")
      let text = flag.help + (flag.defaultText.map { " (default \($0))" } ?? "")
      let body = Self.wrap(text, indent: Self.helpColumn)
      if left.count < Self.helpColumn {
        let padding = String(repeating: " ", count: Self.helpColumn - left.count)
        out += left + padding + body.dropFirst(Self.helpColumn) + "\n"
      } else {
        out += left + "\n" + body + "\n"
      }
    }
    if !notes.isEmpty { out += "\n" + Self.wrap(notes, indent: 0) + "\n" }
    return out
  }

  /// Greedy word wrap of each blank-line-separated paragraph to `width` columns, every line
  /// indented by `indent` spaces.
  static func wrap(_ text: String, indent: Int) -> String {
    let pad = String(repeating: " ", count: indent)
    var paragraphs: [[Substring]] = [[]]
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty {
        paragraphs.append([])
      } else {
        paragraphs[paragraphs.count - 1].append(line)
      }
    }
    return paragraphs.filter { !$0.isEmpty }.map { paragraph in
      var lines: [String] = []
      var line = pad
      for word in paragraph.joined(separator: " ").split(separator: " ") {
        if line.count > indent, line.count + 1 + word.count > width {
          lines.append(line)
          line = pad
        }
        line += (line.count > indent ? " " : "") + word
      }
      lines.append(line)
      return lines.joined(separator: "\n")
    }.joined(separator: "\n\n")
  }
}
