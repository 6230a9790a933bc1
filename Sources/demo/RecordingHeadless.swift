import CSwiftLoaderSDL2
import Foundation
import LoaderSDL
import SwiftLoaderFrameRecording
import SwiftLoaderSupport

extension HeadlessRun {
  /// `--record FILE` headless, `format` the one its extension names: every check first
  /// (`RecordingPlan`: sizes, the file's directory; the flags were checked by `DemoOptions`),
  /// then each frame drawn at its exact simulated time (a fresh scene when the
  /// schedule goes back) and encoded, with a progress line on a terminal; the file appears
  /// only when complete. Returns the plan it recorded.
  func record(to path: String, format: RecordingFormat) throws(Failure) -> RecordingPlan {
    let (width, height) = framePixels
    let plan: RecordingPlan
    do {
      plan = try RecordingPlan(
        path: path, format: format, fps: options.fps,
        duration: options.loop ? nil : options.recordDuration ?? DemoOptions.defaultRecordDuration,
        loop: options.loop, style: options.style, width: width, height: height,
        pixelFormat: options.pixelFormat)
    } catch {
      throw .usage(error)
    }
    do throws(DrawFailure) {
      let (canvas, frame) = try makeCanvasAndFrame(width: width, height: height)
      var scene = try makeScene()
      let hud = try makeHUD()
      let progress = ProgressLine.standardError(
        label: "demo: " + (path as NSString).lastPathComponent, total: plan.schedule.times.count,
        quiet: options.quiet)
      _ = try plan.record(on: canvas, progress: progress) { (t) throws(DrawFailure) in
        if Cancellation.signal != nil { throw .interrupted }
        if !scene.canDraw(at: t) { scene = try makeScene() }
        do throws(LoaderField.Error) {
          try draw(scene, on: canvas, in: frame, at: t, hud: hud)
        } catch {
          throw .field(error)
        }
      }
      return plan
    } catch {
      if let signal = Cancellation.signal { throw .interrupted(Interruption(signal: signal)) }
      throw .render(error.description)
    }
  }
}
