import CSwiftLoaderSDL2
import Dispatch
import Foundation
import LoaderCore
import SwiftLoaderCanvas
import SwiftLoaderTestSupport
import Testing

@testable import LoaderSDL

/// Several threads, each with its own renderers and fields, as the thread contract allows
/// (<doc:InYourSDLProgram#Threads>): OpenGL canvases opened, drawn and closed over and over
/// while `spans` fields blend on the shared pool, with shapes made and let go every frame.
/// Every frame must match the one a single thread draws. Bounded: `rounds` per thread.
@Suite struct ThreadStressTests {
  static let rounds = Int(ProcessInfo.processInfo.environment["STRESS_ROUNDS"] ?? "") ?? 12

  /// One `spans` field of 300 free-placed loaders whose sizes change every frame (shapes made
  /// and let go), drawn on a software canvas with 2 threads; its last frame's pixels.
  static func spansFrames(seed: UInt64, frames: Int) throws -> [UInt32] {
    let field = try LoaderField(layout: .free, backend: .spans, threads: 2)
    let canvas = try OffscreenCanvas(width: 480, height: 320)
    var g = SplitMix64(seed: seed)
    var ids: [LoaderID] = []
    for _ in 0..<300 {
      ids.append(
        try field.addLoader(
          isAnimating: true, at: 0,
          frame: SDL_FRect(x: Float(g.nextUnit() * 440), y: Float(g.nextUnit() * 300), w: 60, h: 12)
        ))
    }
    for f in 0..<frames {
      for (i, id) in ids.enumerated() {
        let h = Float(8 + (i + f * 7) % 40)
        try field.setFrame(
          SDL_FRect(x: Float(i % 20) * 24, y: Float(i / 20) * 21, w: h * 5.8, h: h), of: id)
      }
      canvas.clear(LoaderPalette.light.background)
      try field.draw(on: canvas.loaderRenderer, at: 0.25 + Double(f) / 30)
    }
    canvas.flush()
    return canvas.argbPixels()
  }

  /// One OpenGL canvas made, drawn with `backend` and closed; its pixels.
  static func openGLFrame(_ backend: RingBackend) throws -> [UInt32] {
    let canvas = try OffscreenCanvas.openGL(width: 160, height: 48)
    let view = try LoaderView(isAnimating: true, style: .seed, backend: backend)
    canvas.clear(LoaderPalette.light.background)
    try view.draw(on: canvas.loaderRenderer, in: SDL_FRect(x: 0, y: 0, w: 160, h: 48), at: 0.4)
    canvas.flush()
    return canvas.argbPixels()
  }

  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func canvasesComeAndGoWhileFieldsBlend() throws {
    let spansReference = try Self.spansFrames(seed: 5, frames: 3)
    let glReference = try RingBackend.allCases.map { try Self.openGLFrame($0) }
    let failures = Failures()
    let wrong = failures.record
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for round in 0..<Self.rounds {
        do {
          if worker % 2 == 0 {
            if try Self.spansFrames(seed: 5, frames: 3) != spansReference {
              wrong("spans, worker \(worker) round \(round)")
            }
          } else {
            for (b, backend) in RingBackend.allCases.enumerated()
            where try Self.openGLFrame(backend) != glReference[b] {
              wrong("\(backend) on OpenGL, worker \(worker) round \(round)")
            }
          }
        } catch {
          wrong("worker \(worker) round \(round): \(error)")
        }
      }
    }
    #expect(failures.all.isEmpty, "\(failures.all)")
  }

  /// A host's own windows made and destroyed on one thread while canvases open and close
  /// theirs on others: SDL's window list is one unguarded list for the process, so the host
  /// side goes through the same lock (`OffscreenCanvas.withVideoLock`), as the contract says.
  @Test(
    .enabled(
      if: OffscreenCanvas.openGLAvailable, "no OpenGL renderer on SDL's offscreen driver here"))
  func hostWindowsComeAndGoBesideCanvases() throws {
    @Sendable func video<R>(_ body: () -> R) -> R { OffscreenCanvas.withVideoLock(body) }
    try OffscreenCanvas.bringUpVideo()
    let glReference = try Self.openGLFrame(.gpu)
    let failures = Failures()
    let wrong = failures.record
    DispatchQueue.concurrentPerform(iterations: 3) { worker in
      for round in 0..<(4 * Self.rounds) {
        if worker == 0 {
          guard
            let window = video({
              SDL_CreateWindow("host", 0, 0, 16, 16, SDL_WINDOW_HIDDEN.rawValue)
            })
          else {
            wrong("SDL_CreateWindow, round \(round)")
            continue
          }
          let id = SDL_GetWindowID(window)
          if video({ SDL_GetWindowFromID(id) }) != window {
            wrong("window \(id) lost, round \(round)")
          }
          video { SDL_DestroyWindow(window) }
        } else if round % 4 == 0 {
          do {
            if try Self.openGLFrame(.gpu) != glReference {
              wrong("gpu on OpenGL, worker \(worker) round \(round)")
            }
          } catch {
            wrong("worker \(worker) round \(round): \(error)")
          }
        }
      }
    }
    #expect(failures.all.isEmpty, "\(failures.all)")
  }
}

/// What went wrong on any of a stress test's threads, behind an `NSLock` (which
/// ThreadSanitizer sees; it misses a contended `Mutex`'s hand-over).
private final class Failures: @unchecked Sendable {
  // Safe: `list` is only touched under `lock`.
  private var list: [String] = []
  private let lock = NSLock()

  @Sendable func record(_ what: String) { lock.withLock { list.append(what) } }
  var all: [String] { lock.withLock { list } }
}
