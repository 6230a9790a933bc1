/// One command-line flag, declared once: its name, the kind of value it takes, its default
/// and help, and how a value is checked and stored. `FlagTable` generates `--help` and every
/// error line from these declarations, so the text and the parser cannot drift apart.
///
/// A flag's closure throws `FlagProblem` (or any error, whose description is used) to refuse
/// a value; the table adds the program and the flag's name to make the error line.
package struct Flag<Options>: Sendable {
  package enum Action: Sendable {
    /// A switch: present or not, no value.
    case set(@Sendable (inout Options) -> Void)
    /// Takes one value: `--name VALUE` or `--name=VALUE`.
    case parse(@Sendable (inout Options, String) throws -> Void)
  }

  /// `--name`, as typed.
  package let name: String
  /// Other spellings (`-h` for `--help`), not shown in the help.
  package let aliases: [String]
  /// The value's placeholder in the help (`N`, `WxH`); nil for a switch.
  package let valueName: String?
  package let help: String
  /// Shown as `(default X)` after the help; nil when there is nothing to show.
  package let defaultText: String?
  package let action: Action

  /// A flag that takes a value, parsed (and checked) by `parse`.
  package static func value(
    _ name: String, _ valueName: String, help: String, default defaultText: String?,
    parse: @escaping @Sendable (inout Options, String) throws -> Void
  ) -> Flag {
    Flag(
      name: name, aliases: [], valueName: valueName, help: help, defaultText: defaultText,
      action: .parse(parse))
  }

  /// A switch; `set` runs when it is given.
  package static func `switch`(
    _ name: String, aliases: [String] = [], help: String, default defaultText: String? = "off",
    set: @escaping @Sendable (inout Options) -> Void
  ) -> Flag {
    Flag(
      name: name, aliases: aliases, valueName: nil, help: help, defaultText: defaultText,
      action: .set(set))
  }
}
