import Foundation
import LoaderSDL

// One LoaderView in a 390x120 window: Space toggles isAnimating, Esc quits. Under
// SDL_VIDEODRIVER=dummy it draws t = 0.35 s into hello-loader.png and exits.
let view = LoaderView(isAnimating: true)
@MainActor func draw(on r: OpaquePointer, at t: Double) throws {
  SDL_SetRenderDrawColor(r, 255, 255, 255, 255)
  SDL_RenderClear(r)
  try view.draw(on: r, in: SDL_FRect(x: 0, y: 0, w: 390, h: 120), scale: 1, at: t)
}
do {
  if ProcessInfo.processInfo.environment["SDL_VIDEODRIVER"] == "dummy" {
    let s = SDL_CreateRGBSurfaceWithFormat(0, 390, 120, 32, SDL_PIXELFORMAT_ARGB8888.rawValue)
    guard let s, let r = SDL_CreateSoftwareRenderer(s) else { throw SDLError("renderer") }
    try draw(on: r, at: 0.35)
    exit(IMG_SavePNG(s, "hello-loader.png") == 0 ? 0 : 1)
  }
  SDL_Init(SDL_INIT_VIDEO)
  guard let w = SDL_CreateWindow("hello-loader", 0, 0, 390, 120, 0),
    let r = SDL_CreateRenderer(w, -1, 0)
  else { throw SDLError("SDL_CreateWindow") }
  var e = SDL_Event()
  while true {
    let t = Double(SDL_GetTicks64()) / 1000
    try draw(on: r, at: t)
    SDL_RenderPresent(r)
    // Waits for input while nothing moves (nextChange nil), else up to a 60 Hz frame.
    guard SDL_WaitEventTimeout(&e, view.nextChange(after: t) == nil ? -1 : 16) == 1 else { continue }
    let key = e.type == SDL_KEYDOWN.rawValue ? Int(e.key.keysym.sym) : 0
    if e.type == SDL_QUIT.rawValue || key == Int(SDLK_ESCAPE.rawValue) { exit(0) }
    if key == Int(SDLK_SPACE.rawValue) { try view.setAnimating(!view.isAnimating, at: t) }
  }
} catch { print("hello-loader: \(error)"); exit(1) }
