import CSwiftLoaderSDL2
import LoaderSDL

extension LoaderWindow {
  /// Whether input that `nextEvent()` acts on is waiting: a quit (the close button of the
  /// only window, or SDL's own SIGINT / SIGTERM handler), a key press or a click. Nothing is
  /// taken off the queue; the window system is pumped first, so the answer is current. Cheap
  /// enough to ask between a backend's batches
  /// (`LoaderField.draw(on:in:at:stoppingWhen:)`).
  package func isInputWaiting() -> Bool {
    SDL_PumpEvents()
    return SDL_HasEvent(SDL_QUIT.rawValue) == SDL_TRUE
      || SDL_HasEvent(SDL_KEYDOWN.rawValue) == SDL_TRUE
      || SDL_HasEvent(SDL_MOUSEBUTTONDOWN.rawValue) == SDL_TRUE
  }
}
