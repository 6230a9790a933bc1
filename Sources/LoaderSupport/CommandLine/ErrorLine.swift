/// Makes any text safe to print as one line of an error message.
///
/// Every usage error is exactly one line on stderr, whatever the user typed: a value holding a
/// newline would otherwise split it, and a value of 100,000 characters would bury the reason.
/// - Control characters are escaped as Swift writes them (`\n`, `\r`, `\t`, `\u{1B}`), so the
///   line shows what was typed without letting it move the cursor or start a new line. A
///   backslash stays as it is, so escaping twice (a value, then the line holding it) changes
///   nothing more.
/// - A quoted value keeps its first `quotedLimit` characters, then says how long it was.
public enum ErrorLine {
  /// Characters of a value kept in an error line; more are cut.
  public static let quotedLimit = 80

  /// `text` with every control character escaped (no newline can survive).
  public static func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.properties.generalCategory == .control
          || scalar.properties.generalCategory == .lineSeparator
          || scalar.properties.generalCategory == .paragraphSeparator
        {
          out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// `'value'`, escaped, cut to `quotedLimit` characters with the full length said after it.
  public static func quoted(_ value: some StringProtocol) -> String {
    let count = value.count
    guard count > quotedLimit else { return "'" + escaped(String(value)) + "'" }
    return "'" + escaped(String(value.prefix(quotedLimit))) + "...' (\(count) characters)"
  }

  /// `program: subject: problem` as one line: the subject (a flag, or what was typed in its
  /// place) is escaped and cut like a value, the problem is escaped.
  public static func usage(program: String, subject: String, problem: String) -> String {
    let name = subject.count > quotedLimit ? quoted(subject) : escaped(subject)
    return "\(program): \(name): \(escaped(problem))"
  }
}
