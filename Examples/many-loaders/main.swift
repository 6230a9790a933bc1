import Foundation
import LoaderSDL

let headless = ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"] == "dummy"
let window = SDL_CreateWindow("many-loaders", 0, 0, 800, 600, 0)  // dummy video: a PNG
do {
  guard let r = SDL_CreateRenderer(window, -1, 0) else {
    fatalError("SDL: \(String(cString: SDL_GetError()))")
  }
  let (loaders, field) = (LoaderRenderer(r), try LoaderField(layout: .free))  // a frame each
  let ids = try (0..<10).map { _ in try field.addLoader(isAnimating: true, at: 0) }
  try field.setColors([RGBAColor(hex: 0xFF3B30)], of: ids[9])  // job 9 failed: red, in O(1)
  var e = SDL_Event()
  while e.type != SDL_QUIT.rawValue {
    let t = headless ? 0.35 : Double(SDL_GetTicks64()) / 1000
    for (i, id) in ids.enumerated() {  // heights 10...55 points, rows 5.8 times as wide
      let (h, y) = (Float(10 + 5 * i), 30 + 50 * Float(i) + 20 * Float(sin(t + Double(i))))
      try field.setFrame(SDL_FRect(x: 20 + 37 * Float(i), y: y, w: h * 5.8, h: h), of: id)
    }
    SDL_SetRenderDrawColor(r, 255, 255, 255, 255)
    SDL_RenderClear(r)
    try field.draw(on: loaders, at: t)  // the frames are in the renderer's coordinates
    if headless { exit(IMG_SavePNG(SDL_GetWindowSurface(window), "many-loaders.png")) }
    SDL_RenderPresent(r)
    guard SDL_WaitEventTimeout(&e, 16) == 1, !loaders.handle(e) else { continue }
    let p = SDL_FPoint(x: Float(e.button.x), y: Float(e.button.y))
    if e.type == SDL_MOUSEBUTTONDOWN.rawValue, let id = field.loader(at: p) { try field.raise(id) }
  }
} catch {
  print("many-loaders: \(error)")
  exit(1)
}
