/// The value kinds flags share: each parses one value and checks it against the limits its
/// declaration passes, so a flag's help and its error line quote the same numbers.
///
/// Numbers are Swift's own `Double(_:)` and `Int(_:)` (no whitespace, no trailing text);
/// a number must be finite: `nan`, `inf` and overflowing literals (`1e400`) are refused.
package enum FlagValue {
  /// A whole number in `range`.
  package static func integer(_ s: String, in range: ClosedRange<Int>) throws(FlagProblem) -> Int {
    guard let n = Int(s), range.contains(n) else {
      throw FlagProblem("expected an integer in \(range), got \(ErrorLine.quote(String(s)))")
    }
    return n
  }

  /// Any `UInt64` (a seed), decimal.
  package static func unsigned64(_ s: String) throws(FlagProblem) -> UInt64 {
    guard let n = UInt64(s) else {
      throw FlagProblem(
        "expected an integer in 0...\(UInt64.max), got \(ErrorLine.quote(String(s)))")
    }
    return n
  }

  /// A finite number in `range`; `what` names it in the error (`a number of seconds`).
  ///
  /// `-0` is read as `0`: the two compare equal, so a range starting at 0 takes both, but
  /// `-0` would print as `-0.000` in a frame's file name, a name the next run's clean-up
  /// does not recognise as a frame. `x + 0` is `+0` for `x = -0` and `x` otherwise.
  package static func number(
    _ s: some StringProtocol, in range: ClosedRange<Double>, what: String = "a number"
  ) throws(FlagProblem) -> Double {
    guard let x = Double(String(s)) else {
      throw FlagProblem("expected \(what), got \(ErrorLine.quote(String(s)))")
    }
    guard x.isFinite, range.contains(x) else {
      throw FlagProblem(
        "expected \(what) in \(text(range.lowerBound))...\(text(range.upperBound)), got "
          + ErrorLine.quote(String(s)))
    }
    return x + 0
  }

  /// Comma-separated finite numbers, each in `range`, at most `maximumCount` of them.
  package static func numbers(
    _ s: String, in range: ClosedRange<Double>, what: String = "a number",
    maximumCount: Int = 4096
  ) throws(FlagProblem) -> [Double] {
    let parts = s.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count <= maximumCount else {
      throw FlagProblem("\(parts.count) values; at most \(maximumCount)")
    }
    var out: [Double] = []
    out.reserveCapacity(parts.count)
    for part in parts { out.append(try number(part, in: range, what: what)) }
    return out
  }

  /// One of `choices` by name; the error lists them.
  package static func choice<T>(_ s: String, _ what: String, from choices: [(String, T)])
    throws(FlagProblem) -> T
  {
    guard let hit = choices.first(where: { $0.0 == s }) else {
      throw FlagProblem(
        "unknown \(what) \(ErrorLine.quote(String(s))) (expected \(list(choices.map(\.0))))")
    }
    return hit.1
  }

  /// A case of `T` by its raw value, in declaration order in the error.
  package static func choice<T: CaseIterable & RawRepresentable>(
    _ s: String, _ what: String, of _: T.Type
  ) throws(FlagProblem) -> T where T.RawValue == String {
    try choice(s, what, from: T.allCases.map { ($0.rawValue, $0) })
  }

  /// `on` or `off`.
  package static func onOff(_ s: String) throws(FlagProblem) -> Bool {
    try choice(s, "setting", from: [("on", true), ("off", false)])
  }

  /// `WxH`, each finite and > 0 (what fits in pixels is checked once the density is known).
  package static func size(_ s: String) throws(FlagProblem) -> (width: Double, height: Double) {
    let parts = s.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Double(String(parts[0])), let h = Double(String(parts[1]))
    else { throw FlagProblem("expected WxH, e.g. 390x120, got \(ErrorLine.quote(String(s)))") }
    guard w.isFinite, h.isFinite, w > 0, h > 0 else {
      throw FlagProblem(
        "width and height must be finite and > 0, got \(ErrorLine.quote(String(s)))")
    }
    return (w, h)
  }

  /// A finite number `> 0` and at most `maximum` (any finite one when that is infinite).
  package static func positive(
    _ s: some StringProtocol, atMost maximum: Double = .infinity, what: String = "a number"
  ) throws(FlagProblem) -> Double {
    guard let x = Double(String(s)) else {
      throw FlagProblem("expected \(what), got \(ErrorLine.quote(String(s)))")
    }
    guard x.isFinite, x > 0, x <= maximum else {
      let limit = maximum.isFinite ? " and <= \(text(maximum))" : ""
      throw FlagProblem(
        "expected \(what), finite and > 0\(limit), got \(ErrorLine.quote(String(s)))")
    }
    return x
  }

  /// `a, b or c`.
  package static func list(_ names: [String]) -> String {
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
  }

  /// A limit as people write it: `86400`, not `86400.0`; `0.001`; `1e-06`.
  package static func text(_ x: Double) -> String {
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return "\(x)"
  }
}
