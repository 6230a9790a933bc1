/// `seconds` as the errors print a time: to the millisecond, three decimals ("0.350",
/// "-1.000", "86400.000"), so that an earliest time of 0.008333333333333333 reads 0.008.
/// A time too large for that to mean anything (1e15 s and beyond, or not finite) prints as
/// Swift prints it ("1e+300", "inf"). `rounding` picks the millisecond: `.up` for an earliest
/// time, so that the time printed is one that is taken.
package func millisecondText(
  _ seconds: Double, rounding: FloatingPointRoundingRule = .toNearestOrAwayFromZero
) -> String {
  guard seconds.isFinite, seconds.magnitude < 1e15 else { return "\(seconds)" }
  let milliseconds = Int64((seconds * 1000).rounded(rounding))
  let whole = milliseconds.magnitude / 1000
  let fraction = String(milliseconds.magnitude % 1000)
  let sign = milliseconds < 0 ? "-" : ""
  return "\(sign)\(whole)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}
