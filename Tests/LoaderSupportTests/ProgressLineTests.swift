import SwiftLoaderSupport
import Testing

/// The progress line driven by an injected clock and terminal flag: what it writes, when, and
/// when it writes nothing at all.
@Suite struct ProgressLineTests {
  /// A clock the test moves by hand and everything the line wrote.
  final class Rig {
    var now = 100.0
    var written: [String] = []

    func line(
      total: Int, isTerminal: Bool = true, quiet: Bool = false, label: String = "demo: l.gif"
    )
      -> ProgressLine
    {
      ProgressLine(
        label: label, total: total, isTerminal: isTerminal, quiet: quiet,
        clock: { [unowned self] in self.now }, write: { [unowned self] in self.written.append($0) })
    }

    /// Runs `frames` frames `step` seconds apart, then finishes.
    func run(_ line: ProgressLine, frames: Int, step: Double) {
      for k in 0..<frames {
        now += step
        line.update(done: k + 1)
      }
      line.finish()
    }
  }

  @Test func aLongRunOnATerminalRewritesOneLineAndEndsIt() {
    let rig = Rig()
    let line = rig.line(total: 40)
    rig.run(line, frames: 40, step: 0.125)
    // Nothing in the first second; then a rewrite when 0.2 s have passed (every other frame
    // here); then the final count and a newline.
    #expect(rig.written.first == "\rdemo: l.gif: 8/40 frames, 1.0 s, about 4.0 s left")
    #expect(rig.written[2] == "\rdemo: l.gif: 12/40 frames, 1.5 s, about 3.5 s left")
    #expect(rig.written.count == 17 + 1)
    #expect(rig.written.dropLast().allSatisfy { $0.hasPrefix("\r") && !$0.contains("\n") })
    #expect(rig.written.last == "\rdemo: l.gif: 40/40 frames in 5.0 s\n")
    #expect(line.hasWritten)
  }

  @Test func nothingWhenNotATerminalQuietOrShort() {
    for (isTerminal, quiet, step) in [
      (false, false, 0.1), (true, true, 0.1), (true, false, 0.015625),
    ] {
      let rig = Rig()
      let line = rig.line(total: 40, isTerminal: isTerminal, quiet: quiet)
      rig.run(line, frames: 40, step: step)
      #expect(rig.written.isEmpty, "terminal \(isTerminal) quiet \(quiet) step \(step)")
      #expect(!line.hasWritten)
    }
  }

  /// The estimate is the mean time per frame so far times the frames left; a slow first frame
  /// shows the line as soon as it is done; an interrupted run ends the line where it stopped.
  @Test func estimateAndInterruption() {
    let rig = Rig()
    let line = rig.line(total: 4)
    rig.now += 7.5
    line.update(done: 1)
    #expect(rig.written == ["\rdemo: l.gif: 1/4 frames, 7.5 s, about 23 s left"])
    rig.now += 70
    line.update(done: 2)
    #expect(rig.written.last == "\rdemo: l.gif: 2/4 frames, 1 min 18 s, about 1 min 18 s left")
    line.finish()
    line.finish()
    line.update(done: 3)
    #expect(rig.written.count == 3, "nothing after finish")
    // Padded over the longer line before it, then ended.
    let padding = String(repeating: " ", count: 21)
    #expect(rig.written.last == "\rdemo: l.gif: 2/4 frames in 1 min 18 s" + padding + "\n")
  }

  /// A label from the command line is escaped and cut, so the line stays one line that fits.
  @Test func labelsAreOneShortLine() {
    let rig = Rig()
    let line = rig.line(total: 1, label: "demo: a\nb\r" + String(repeating: "x", count: 200))
    rig.now += 2
    line.update(done: 0)
    let text = rig.written.first ?? ""
    #expect(
      text == "\rdemo: a\\nb\\r" + String(repeating: "x", count: 15) + "...: 0/1 frames, 2.0 s")
    #expect(!text.dropFirst().contains("\r") && !text.contains("\n"))
  }
}
