import Foundation
import LoaderSDL

// One LoaderView in a HiDPI window: Space toggles, Esc quits; SDL_VIDEODRIVER=dummy: one PNG.
let view = LoaderView(isAnimating: true)
let headless = ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"] == "dummy"
let surface = SDL_CreateRGBSurfaceWithFormat(0, 780, 240, 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
let hiDPI = SDL_WINDOW_ALLOW_HIGHDPI.rawValue  // pixels at the display's density
let window = headless ? nil : SDL_CreateWindow("hello-loader", 0, 0, 390, 120, hiDPI)
do {
  let soft = surface.flatMap(SDL_CreateSoftwareRenderer)
  guard let r = headless ? soft : SDL_CreateRenderer(window, -1, 0) else {
    fatalError("SDL: \(String(cString: SDL_GetError()))")
  }
  let loaders = LoaderRenderer(r, surface: headless ? surface : nil)  // `r`'s shared caches
  SDL_RenderSetLogicalSize(r, 390, 120)  // 390x120 coordinates at the output's density
  var e = SDL_Event()
  while true {
    let t = headless ? 0.35 : Double(SDL_GetTicks64()) / 1000
    SDL_SetRenderDrawColor(r, 255, 255, 255, 255)
    SDL_RenderClear(r)
    try view.draw(on: loaders, in: SDL_FRect(x: 0, y: 0, w: 390, h: 120), at: t)
    if headless { exit(IMG_SavePNG(surface, "hello-loader.png") == 0 ? 0 : 1) }
    SDL_RenderPresent(r)
    let wait: Int32 = view.nextChange(after: t) == nil ? -1 : 16  // sleeps while still
    guard SDL_WaitEventTimeout(&e, wait) == 1 else { continue }
    loaders.handle(e)  // textures lost (SDL_RENDER_TARGETS_RESET): remade on the next draw
    let key = e.type == SDL_KEYDOWN.rawValue ? Int(e.key.keysym.sym) : 0
    if e.type == SDL_QUIT.rawValue || key == Int(SDLK_ESCAPE.rawValue) { exit(0) }
    if key == Int(SDLK_SPACE.rawValue) { try view.setAnimating(!view.isAnimating, at: t) }
  }
} catch {
  print("hello-loader: \(error)")
  exit(1)
}
