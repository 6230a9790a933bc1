import Foundation
import LoaderSDL
import SwiftLoaderFrameRecording

/// The window's HUD, screenshots and recording: H, `?` / F1, S / PrintScreen and R.
///
/// Screenshots and recordings are read back after the scene and HUD are drawn, before
/// `present` (which may leave the back buffer undefined), so they hold what is on screen.
final class WindowExtras {
  private let hud: HUD?
  private let fps: Int
  private var recording: LiveRecording?
  private var lastFrame: Double?
  private var animating = 0
  private var framesSinceCount = Int.max
  /// Frames between two counts of the animating loaders (a walk over every loader).
  private static let countInterval = 15
  var isRecording: Bool { recording != nil }

  /// The HUD is on unless `--hud off`; a missing font is one line on stderr and no HUD.
  init(options: DemoOptions) {
    fps = options.fps
    var hud: HUD? = nil
    do {
      hud = try HUD()
    } catch {
      printError("demo: no HUD: \(error)")
    }
    hud?.isVisible = options.hud ?? true
    self.hud = hud
  }

  func handle(_ event: WindowCommand, renderer: OpaquePointer, at t: Double) {
    switch event {
    case .toggleHUD: hud?.isVisible.toggle()
    case .toggleKeys: hud?.showsKeys.toggle()
    case .screenshot: pendingScreenshot = true
    case .toggleRecording: toggleRecording(renderer: renderer, at: t)
    case .renderTargetsReset: hud?.renderTargetsDidReset()
    default: break
    }
  }

  /// S asks for the next frame drawn, so the file holds a whole frame, HUD included.
  private var pendingScreenshot = false

  private func stopRecording() {
    guard let r = recording else { return }
    recording = nil
    do {
      print("demo: wrote \(try r.stop())")
    } catch {
      printError("demo: recording: \(error)")
    }
  }

  private func toggleRecording(renderer: OpaquePointer, at t: Double) {
    if recording != nil { return stopRecording() }
    let path = Self.recordingName()
    do {
      recording = try LiveRecording(
        path: path, format: Self.recordingFormat, fps: fps, renderer: renderer, at: t)
      printError("demo: recording to \(path); R stops")
    } catch {
      printError("demo: recording: \(error)")
    }
  }

  /// What R records.
  static let recordingFormat = RecordingFormat.gif

  /// `recording-YYYYMMDD-HHMMSS-mmm.gif` in the working directory, like a screenshot's name.
  static func recordingName(at date: Date = Date()) -> String {
    Screenshot.fileName(at: date).replacingOccurrences(of: "screenshot-", with: "recording-")
      .replacingOccurrences(of: ".png", with: "." + recordingFormat.rawValue)
  }

  /// After the scene is drawn, before present: the HUD over it, then a screenshot and the
  /// recording's frame. `hudScale` is the window's own density (the HUD does not zoom).
  func frameDrawn(
    scene: LoaderScene, window: LoaderWindow, hudScale: Double, at t: Double, now: Double
  ) {
    if let last = lastFrame { hud?.record(frameTime: now - last) }
    lastFrame = now
    if let hud, hud.isVisible || hud.showsKeys {
      if framesSinceCount >= Self.countInterval {
        animating = scene.animatingCount
        framesSinceCount = 0
      }
      framesSinceCount += 1
      let info = HUD.Info(
        scene: scene, animating: animating, renderer: window.rendererName,
        gpuFallback: scene.field.backend == nil ? window.loaders.gpuFallbackReason : nil)
      do {
        try hud.draw(on: window.renderer, stats: info, scale: hudScale)
      } catch {
        printError("demo: HUD: \(error)")
      }
    }
    if pendingScreenshot {
      pendingScreenshot = false
      do {
        print("demo: wrote \(try Screenshot.save(of: window.renderer, in: "."))")
      } catch {
        printError("demo: screenshot: \(error)")
      }
    }
    do {
      try recording?.offer(window.renderer, at: t)
    } catch {
      printError("demo: recording: \(error)")
      recording?.cancel()
      recording = nil
    }
  }

  /// Whether the next frame must be drawn even if nothing moves.
  var needsFrame: Bool { isRecording || pendingScreenshot }

  /// Esc while recording: the file is finished, not lost.
  func close() {
    stopRecording()
  }

  /// Interrupted by a signal: a recording in progress is dropped with its temporary.
  func discard() {
    guard let r = recording else { return }
    recording = nil
    r.cancel()
  }
}
