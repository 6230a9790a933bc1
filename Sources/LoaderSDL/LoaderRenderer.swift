import CSwiftLoaderSDL2
import LoaderCore

/// One SDL renderer as the loaders see it: the masks, meshes and textures every `LoaderView`
/// and `LoaderField` drawing there shares, and the backend it prefers.
///
/// Make one beside each `SDL_Renderer` you draw loaders on, pass it to every `draw`, and let
/// it go (or `close()` it) before `SDL_DestroyRenderer`, as with a font cache:
/// ```swift
/// let loaders = LoaderRenderer(renderer)
/// let view = LoaderView(isAnimating: true)
/// // every frame:
/// try view.draw(on: loaders, in: SDL_FRect(x: 20, y: 20, w: 290, h: 50), at: now)
/// // in the event loop:
/// loaders.handle(event)   // SDL_RENDER_TARGETS_RESET / SDL_RENDER_DEVICE_RESET
/// ```
///
/// ## Caches
/// A ring shape (style, fit and pixel density) has one cache per backend on the renderer,
/// whatever the number of views: 100 views of the seed at one density hold what one does. A
/// shape's cache is made on its first draw, bounded by the `budgetBytes` given to
/// `init(_:surface:budgetBytes:)` (masks or atlas cells past it are dropped and remade on
/// demand), and freed when no view draws that shape any more (the last view holding it went,
/// or moved to another density; a `LoaderField` in `.free` layout, whose loaders come in many
/// sizes, lets a shape go once 60 of its draws have not used it).
/// The `spans` backend also keeps all its shapes together within four times `budgetBytes`,
/// forgetting the masks of the least recently drawn first. `cachedBytes` says what is held.
///
/// ## Lifetime
/// SDL2 tells nobody when a renderer is destroyed and may give a new one the old address, so
/// nothing is looked up by address: the object you made for a renderer is the only way its
/// textures are reached. It must not outlive the renderer; `close()` frees its textures at once
/// and makes later draws on it throw, so a host can end it in the same place it destroys the
/// renderer.
///
/// Not thread-safe: draw on the thread that owns the renderer, as SDL requires.
public final class LoaderRenderer {
  /// The SDL renderer drawn on.
  package let renderer: OpaquePointer
  /// The surface a software renderer draws into when you made it with
  /// `SDL_CreateSoftwareRenderer` (the `spans` backend then blends into its pixels directly).
  package let surface: UnsafeMutablePointer<SDL_Surface>?
  /// Bytes each shape's cache keeps at most, per backend.
  package let budgetBytes: Int
  /// The backend views use here unless they ask for one: the cheapest at the quality bar on
  /// this kind of renderer (`RingBackend.preferred(for:)`, which `preferred(accelerated:)`
  /// decides).
  package let preferredBackend: RingBackend
  private var rasterizers: [RingBackend: any RingRasterizer] = [:]
  /// Whether `close()` was called.
  package private(set) var isClosed = false

  /// The loaders' side of `renderer`: nothing is made until the first draw on it.
  /// - Parameters:
  ///   - renderer: an SDL renderer; the object must not outlive it.
  ///   - surface: the surface `renderer` draws into, if you made it with
  ///     `SDL_CreateSoftwareRenderer` (nil otherwise: a window's software renderer is found
  ///     without it).
  ///   - budgetBytes: the most each shape's cache holds per backend (default 32 MiB, at least
  ///     1 MiB: a smaller value counts as 1 MiB; the seed at density 1 needs about 3 MB for
  ///     every rotation at one sub-pixel position).
  public init(
    _ renderer: OpaquePointer, surface: UnsafeMutablePointer<SDL_Surface>? = nil,
    budgetBytes: Int = 32 << 20
  ) {
    self.renderer = renderer
    self.surface = surface
    self.budgetBytes = max(1 << 20, budgetBytes)
    preferredBackend = RingBackend.preferred(for: renderer)
  }

  deinit { close() }

  /// The rasterizer of `backend` on this renderer, made on first use.
  package func rasterizer(_ backend: RingBackend) throws(LoaderField.Error) -> any RingRasterizer {
    guard !isClosed else { throw .closed }
    if let r = rasterizers[backend] { return r }
    let r = backend.makeRasterizer(surface: surface, budgetBytes: budgetBytes)
    rasterizers[backend] = r
    return r
  }

  /// A field draws `shape` with `backend` here until it releases it.
  package func retain(_ backend: RingBackend, shape: DashedRing) {
    guard !isClosed, let r = try? rasterizer(backend) else { return }
    r.retain(shape: shape)
  }

  package func release(_ backend: RingBackend, shape: DashedRing) {
    guard !isClosed else { return }
    rasterizers[backend]?.release(shape: shape)
  }

  /// Bytes of masks, meshes and textures the loaders hold on this renderer now.
  public var cachedBytes: Int { rasterizers.values.reduce(0) { $0 + $1.cachedBytes } }

  /// Handles `SDL_RENDER_TARGETS_RESET` and `SDL_RENDER_DEVICE_RESET` (textures lost: they are
  /// remade on the next draw). Pass every event: the others are ignored.
  /// - Parameter event: an event from `SDL_PollEvent` or `SDL_WaitEvent`.
  /// - Returns: whether `event` was one of the two resets.
  @discardableResult
  public func handle(_ event: SDL_Event) -> Bool {
    let type = event.type
    guard type == SDL_RENDER_TARGETS_RESET.rawValue || type == SDL_RENDER_DEVICE_RESET.rawValue
    else { return false }
    renderTargetsDidReset()
    return true
  }

  /// The renderer lost its textures: every cache on it is rebuilt on demand.
  package func renderTargetsDidReset() {
    for r in rasterizers.values { r.renderTargetsDidReset(on: renderer) }
  }

  /// Frees every texture and cache now; afterwards no call touches SDL and a draw on this
  /// renderer throws a `LoaderField.Error`. Call it before `SDL_DestroyRenderer` if the
  /// object may live on. Calling it again does nothing.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    for r in rasterizers.values { r.close() }
    rasterizers.removeAll()
  }
}

/// Not `Sendable`: a `LoaderRenderer` belongs to the thread of the SDL renderer it draws on (see
/// <doc:InYourSDLProgram#Threads>).
@available(*, unavailable)
extension LoaderRenderer: Sendable {}
