import CSDL2
import Foundation

/// The built `demo` beside this test bundle, run headless (dummy video driver) in `directory`;
/// and its PNG frames read back as `0xAARRGGBB` pixels, the decoders' form.
enum DemoBinary {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static func run(_ arguments: [String], in directory: String) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var dir = me.deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("demo").path),
      dir.pathComponents.count > 1
    {
      dir = dir.deletingLastPathComponent()
    }
    let p = Process()
    p.executableURL = dir.appendingPathComponent("demo")
    p.arguments = arguments
    p.currentDirectoryURL = URL(fileURLWithPath: directory)
    var env = ProcessInfo.processInfo.environment
    env["SDL_VIDEODRIVER"] = "dummy"
    p.environment = env
    // Files, not pipes: nothing to drain while the child runs.
    let out = directory + "/.stdout"
    let err = directory + "/.stderr"
    guard FileManager.default.createFile(atPath: out, contents: nil),
      FileManager.default.createFile(atPath: err, contents: nil)
    else { throw Failure(description: "cannot create \(out)") }
    p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    p.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
    try p.run()
    p.waitUntilExit()
    defer {
      unlink(out)
      unlink(err)
    }
    return (
      p.terminationStatus, (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
      (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
    )
  }

  /// A PNG's pixels through SDL2_image, opaque, row-major.
  static func png(_ path: String) throws -> [UInt32] {
    guard let loaded = IMG_Load(path) else {
      throw Failure(description: "IMG_Load(\(path)): \(String(cString: SDL_GetError()))")
    }
    defer { SDL_FreeSurface(loaded) }
    guard let s = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ARGB8888.rawValue, 0),
      let base = s.pointee.pixels
    else { throw Failure(description: "SDL_ConvertSurfaceFormat(\(path))") }
    defer { SDL_FreeSurface(s) }
    let w = Int(s.pointee.w)
    var out: [UInt32] = []
    out.reserveCapacity(w * Int(s.pointee.h))
    for y in 0..<Int(s.pointee.h) {
      let row = base.advanced(by: y * Int(s.pointee.pitch)).assumingMemoryBound(to: UInt32.self)
      for x in 0..<w { out.append(row[x] | 0xFF00_0000) }
    }
    return out
  }

  /// The demo's headless frames at `times` (given as Swift prints them, so `--at` reads the
  /// same doubles back), in order.
  static func frames(at times: [Double], extra: [String] = [], in directory: String) throws
    -> [[UInt32]]
  {
    let r = try run(
      ["--at", times.map { "\($0)" }.joined(separator: ","), "--out", "png"] + extra,
      in: directory)
    guard r.status == 0 else { throw Failure(description: "demo --at: \(r.stderr)") }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/png")
      .filter { $0.hasPrefix("frame-") }.sorted()
    guard names.count == times.count else {
      throw Failure(description: "\(names.count) frames for \(times.count) times")
    }
    return try names.map { try png(directory + "/png/" + $0) }
  }
}
