import Foundation
import SwiftLoaderTestSupport
import Testing

@testable import SwiftLoaderDemo

/// The demo in a window (Xvfb, whose GLX is Mesa's llvmpipe) posing as a GPU
/// (`MesaFaults.posingAsGPU`), under a driver fault: it opens, says once on standard error
/// which backend it draws with and why `gpu` is off, keeps running, and quits on Esc with 0.
@Suite(.serialized) struct DemoGPUFallbackTests {
  enum Fault: String, CaseIterable, Sendable {
    case shaderRejected, wrongPixels, contextTooOld
  }

  @Test(arguments: Fault.allCases)
  func theWindowRunsOnAndSaysWhyOnce(fault: Fault) throws {
    let dir = try ScratchDirectory("gpu-fault")
    defer { dir.remove() }
    var env = MesaFaults.posingAsGPU
    let reason: String
    switch fault {
    case .shaderRejected:
      try MesaFaults.replaceFragmentShader(in: dir.path, with: .rejected)
      env["MESA_SHADER_READ_PATH"] = dir.path
      reason = "the gpu fragment shader did not compile: "
    case .wrongPixels:
      try MesaFaults.replaceFragmentShader(in: dir.path, with: .wrong)
      env["MESA_SHADER_READ_PATH"] = dir.path
      reason = "the gpu probe's pixels are "
    case .contextTooOld:
      env["MESA_GL_VERSION_OVERRIDE"] = "3.0"
      reason = "the gpu backend needs OpenGL 3.3 or OpenGL ES 3.0"
    }
    let session = try DemoWindowTests.Session(
      "gpu-fault", arguments: ["--count", "40", "--renderer", "opengl"], environment: env)
    // A second of frames: a first frame that failed would have ended the demo by now.
    usleep(1_500_000)
    #expect(session.demo.isRunning, "the demo exited under \(fault)")
    try session.key("Escape")
    let (exited, status, _, err) = session.finish(within: 60)
    #expect(exited, "Esc did not quit")
    #expect(status == 0, "\(err)")
    let said = err.split(separator: "\n").filter { $0.contains(reason) }
    #expect(said.count == 1, "stderr: \(err)")
    #expect(said.first?.contains("backend gfx: ") == true, "stderr: \(err)")
  }

  /// The HUD's backend line names the fallback's reason, shortened to fit its panel.
  @Test func theHUDShortensTheReason() {
    let reason =
      "the gpu fragment shader did not compile: 0:127(17): error: no function with name 'notAFunction'"
    let short = HUD.Info.shortened(reason)
    #expect(short.hasPrefix("fragment shader did not compile: 0:127(17): error: no func"))
    #expect(short.count == 64 && short.hasSuffix("\u{2026}"))
    #expect(HUD.Info.shortened("the gpu probe's pixels are 7.4 dB") == "probe's pixels are 7.4 dB")
  }
}
