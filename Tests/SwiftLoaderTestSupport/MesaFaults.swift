import Foundation
import LoaderSDL

/// Mesa's ways to make this machine's llvmpipe pose as a GPU and then fail like a driver,
/// read from the environment of the process they apply to (once, when it first makes a
/// context): the `gpu` backend's check is tested under them.
package enum MesaFaults {
  /// Mesa's driconf option that makes llvmpipe report a GPU's `GL_RENDERER`, so the default
  /// takes it for one.
  package static let posingAsGPU = ["force_gl_renderer": "NVIDIA GeForce RTX 4090/PCIe/SSE2"]

  /// A replacement of the `gpu` backend's desktop fragment shader.
  package enum Replacement: String, CaseIterable, Sendable {
    /// One the compiler rejects: it calls a function GLSL lacks.
    case rejected
    /// One that compiles and draws every pixel of a ring's square magenta.
    case wrong
  }

  /// Writes `replacement` where `MESA_SHADER_READ_PATH=dir` makes Mesa read it in place of
  /// the backend's fragment shader: `FS_<SHA-1 of the source>.glsl`.
  package static func replaceFragmentShader(in dir: String, with replacement: Replacement)
    throws
  {
    let source = GPURingProgram.sources(openGLES: false).fragment
    let replaced =
      switch replacement {
      case .rejected: source + "\nvoid broken() { notAFunction(); }\n"
      case .wrong:
        source.replacingOccurrences(
          of: "o_color = vec4(rgb, v_color.a * c);", with: "o_color = vec4(1.0, 0.0, 1.0, 1.0);")
      }
    guard replaced != source else {
      throw CocoaError(.featureUnsupported, userInfo: ["why": "the shader's output line moved"])
    }
    try replaced.write(
      toFile: "\(dir)/FS_\(try sha1(source)).glsl", atomically: true, encoding: .utf8)
  }

  /// SHA-1 of `text`'s UTF-8 bytes, hexadecimal (coreutils' `sha1sum`).
  static func sha1(_ text: String) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/sha1sum")
    let input = Pipe()
    let output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    try p.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(String(decoding: out, as: UTF8.self).prefix(40))
  }
}
