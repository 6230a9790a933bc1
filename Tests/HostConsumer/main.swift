// A host program outside the repository (`HostConsumerTests` copies it, with
// `HostRenderStates.swift`, into a package that depends on SwiftLoader by path): the seed row
// drawn under every render state an SDL program sets, with every backend, on SDL's software
// renderer (its surface given to the loaders, and not) and on OpenGL (SDL's offscreen driver).
// One PNG a picture in the directory given, and one line a picture on stdout:
// `<host> <backend> <state> kept|changed <state before> -> <state after>`.
import Foundation
import LoaderSDL

let directory = CommandLine.arguments.dropFirst().first ?? "."
let width = Int32(HostRenderStateCase.canvasWidth)
let height = Int32(HostRenderStateCase.canvasHeight)

func fail(_ what: String) -> Never {
  FileHandle.standardError.write(
    Data("consumer: \(what): \(String(cString: SDL_GetError()))\n".utf8))
  exit(1)
}

SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen")
guard SDL_Init(SDL_INIT_VIDEO) == 0 else { fail("SDL_Init") }
guard
  let surface = SDL_CreateRGBSurfaceWithFormat(
    0, width, height, 32, SDL_PIXELFORMAT_ARGB8888.rawValue),
  let software = SDL_CreateSoftwareRenderer(surface)
else { fail("software renderer") }
var hosts:
  [(name: String, renderer: OpaquePointer, loaders: LoaderRenderer, backends: [RingBackend])] = [
    ("softwareSurface", software, LoaderRenderer(software, surface: surface), [.spans, .gfx]),
    ("software", software, LoaderRenderer(software), [.spans, .gfx]),
  ]
let flags = SDL_WINDOW_HIDDEN.rawValue | SDL_WINDOW_OPENGL.rawValue
if let window = SDL_CreateWindow("consumer", 0, 0, width, height, flags),
  let gl = SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue)
{
  hosts.append(("openGL", gl, LoaderRenderer(gl), RingBackend.allCases))
} else {
  print("no OpenGL renderer: \(String(cString: SDL_GetError()))")
}

for host in hosts {
  for state in HostRenderStateCase.allCases {
    for backend in host.backends {
      let drawing: HostDrawing
      do {
        drawing = try HostDrawing.draw(
          state, backend: backend, on: host.loaders, renderer: host.renderer)
      } catch {
        fail("\(host.name) \(backend) \(state): \(error)")
      }
      var pixels = drawing.pixels
      let name = "\(host.name)-\(backend.rawValue)-\(state.rawValue).png"
      let saved = pixels.withUnsafeMutableBytes { buf -> Int32 in
        guard
          let s = SDL_CreateRGBSurfaceWithFormatFrom(
            buf.baseAddress, width, height, 32, width * 4, SDL_PIXELFORMAT_ARGB8888.rawValue)
        else { return -1 }
        defer { SDL_FreeSurface(s) }
        return IMG_SavePNG(s, "\(directory)/\(name)")
      }
      guard saved == 0 else { fail("IMG_SavePNG(\(name))") }
      let kept = drawing.stateAfter == drawing.stateBefore ? "kept" : "changed"
      print(
        "\(host.name) \(backend.rawValue) \(state.rawValue) \(kept) \(drawing.stateBefore)"
          + " -> \(drawing.stateAfter)")
    }
  }
}
for host in hosts { host.loaders.close() }
exit(0)
