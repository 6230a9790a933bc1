import Foundation
import LoaderSDL

// A downloads list: 8 rows in 1280x720 coordinates, letterboxed into a 1600x1000 window, each
// row's loader fitted into a 200x60 rect (a row is 290x50 points). SDL_VIDEODRIVER=dummy: a PNG.
let headless = ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"] == "dummy"
let surface = SDL_CreateRGBSurfaceWithFormat(0, 1600, 1000, 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
let flags = SDL_WINDOW_ALLOW_HIGHDPI.rawValue | SDL_WINDOW_RESIZABLE.rawValue
let window = headless ? nil : SDL_CreateWindow("loader-list", 0, 0, 1600, 1000, flags)
do {
  let soft = surface.flatMap(SDL_CreateSoftwareRenderer)
  guard let r = headless ? soft : SDL_CreateRenderer(window, -1, 0) else {
    fatalError("SDL: \(String(cString: SDL_GetError()))")
  }
  let loaders = LoaderRenderer(r, surface: headless ? surface : nil)
  SDL_RenderSetLogicalSize(r, 1280, 720)
  // backend nil: the renderer's default (loaders.defaultBackend(rings:)); or .spans, .gfx, .gpu
  let views = try (0..<8).map { i in
    try LoaderView(isAnimating: i != 5, style: .seed, backend: nil, fitsFrame: true)
  }
  var e = SDL_Event()
  while true {
    let t = headless ? 0.35 : Double(SDL_GetTicks64()) / 1000
    SDL_SetRenderDrawColor(r, 242, 242, 247, 255)
    SDL_RenderClear(r)
    for (i, view) in views.enumerated() {
      var row = SDL_FRect(x: 40, y: 40 + 82 * Float(i), w: 1200, h: 72)
      SDL_SetRenderDrawColor(r, 255, 255, 255, 255)
      SDL_RenderFillRectF(r, &row)
      try view.draw(on: loaders, in: SDL_FRect(x: 1020, y: row.y + 6, w: 200, h: 60), at: t)
    }
    if headless { exit(IMG_SavePNG(surface, "loader-list.png") == 0 ? 0 : 1) }
    SDL_RenderPresent(r)
    while SDL_PollEvent(&e) != 0 {
      loaders.handle(e)
      if e.type == SDL_QUIT.rawValue { exit(0) }
    }
    SDL_Delay(16)
  }
} catch {
  print("loader-list: \(error)")
  exit(1)
}
