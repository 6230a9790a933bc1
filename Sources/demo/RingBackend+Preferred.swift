import LoaderSDL

extension RingBackend {
  /// The backend the demo uses without `--backend`: the fastest one that meets the quality
  /// bar (SPEC, issue 4: at least 30 dB against Cairo) on the renderer in use.
  /// - software renderer (headless, or a window without acceleration): `spans` blends its
  ///   coverage masks straight into the pixels; `geometry` loses the bar there (SDL's
  ///   software renderer rounds vertices to whole pixels) and `gfx` is many SDL calls a ring;
  /// - accelerated renderer on a GPU: `geometry`, one `SDL_RenderGeometry` call a frame that
  ///   the GPU rasterizes, where `spans` would upload a window-sized texture every frame;
  /// - an "accelerated" renderer whose OpenGL is a CPU rasterizer (Mesa's llvmpipe, softpipe
  ///   or swrast, as under Xvfb): `spans` again, since there every dash triangle costs CPU
  ///   time (the README has the measured frame rates).
  static func preferred(accelerated: Bool, glRenderer: String? = nil) -> RingBackend {
    guard accelerated else { return .spans }
    let name = glRenderer?.lowercased() ?? ""
    let cpuGL = ["llvmpipe", "softpipe", "swrast", "software rasterizer"]
    return cpuGL.contains { name.contains($0) } ? .spans : .geometry
  }

  /// The next backend in declaration order, for the window's `B` key.
  var next: RingBackend {
    let all = RingBackend.allCases
    let i = all.firstIndex(of: self) ?? all.startIndex
    let j = all.index(after: i)
    return j == all.endIndex ? all[all.startIndex] : all[j]
  }
}
