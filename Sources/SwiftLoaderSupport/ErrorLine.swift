/// The one format of every error line the executables print: exactly one line, of bounded
/// length, whatever the user typed.
///
/// A value from the command line can be 100,000 characters long or hold a newline; echoed as
/// is it would flood the terminal or split one error into two lines that a script reading
/// "the first line of stderr" misreads. So:
/// - `quote(_:)` puts a value in single quotes with control characters escaped (`\n`, `\t`,
///   `\u{1B}`) and cuts it to `valueLimit` characters, ending in `...` when cut;
/// - `format(_:)` escapes any control character left in a whole message and cuts it to
///   `lineLimit` characters, so even a message built without `quote` stays one line.
package enum ErrorLine {
  /// Characters of a quoted value kept, quotes excluded, `...` included.
  package static let valueLimit = 80
  /// Characters of a whole error line kept.
  package static let lineLimit = 600

  /// `value` in single quotes, escaped and cut to `valueLimit` characters.
  package static func quote(_ value: String) -> String {
    "'" + cut(escaped(value), to: valueLimit) + "'"
  }

  /// `message` as one line of at most `lineLimit` characters.
  package static func format(_ message: String) -> String {
    cut(escaped(message), to: lineLimit)
  }

  /// Writes `format(message)` and a newline to standard error.
  package static func print(_ message: String) {
    StandardStreams.writeError(format(message) + "\n")
  }

  /// Control characters (C0, DEL, C1, and the Unicode line and paragraph separators) as
  /// Swift-style escapes; everything else unchanged.
  static func escaped(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.utf8.count)
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// `s` cut to `limit` characters, the last three being `...` when anything was cut.
  static func cut(_ s: String, to limit: Int) -> String {
    guard s.count > limit else { return s }
    return String(s.prefix(max(0, limit - 3))) + "..."
  }
}
