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
/// whatever the number of views. The renderer's store owns them all, with every shape's
/// masks, on one clock of draws (never the wall clock, so a host that stops drawing loses
/// nothing): past `budgetBytes` what was drawn least recently goes, and so does whatever no
/// draw used for 1,024 draws. None of it changes pixels (see <doc:Performance>, "Memory").
///
/// ## Lifetime
/// SDL2 tells nobody when a renderer is destroyed and may give a new one the old address, so
/// nothing is looked up by address: this object is the only way to the renderer's textures.
/// It must not outlive the renderer; `close()` frees its textures at once and makes later
/// draws throw.
///
/// Not thread-safe: draw on the thread that owns the renderer, as SDL requires.
public final class LoaderRenderer {
  /// The SDL renderer drawn on.
  package let renderer: OpaquePointer
  /// The surface a software renderer draws into when you made it with
  /// `SDL_CreateSoftwareRenderer` (the `spans` backend then blends into its pixels directly).
  package let surface: UnsafeMutablePointer<SDL_Surface>?
  /// Bytes every shape's caches together keep at most between draws, as allocated; a change
  /// reaches every cache at the end of the next draw.
  public var budgetBytes: Int {
    get { shapes.budgetBytes }
    set { shapes.budgetBytes = newValue }
  }
  /// What the renderer is: read here and again after a reset, never per draw.
  package private(set) var traits: RendererTraits
  /// Every shape drawn here, with each backend's cache of it.
  package let shapes: ShapeStore
  /// The backends drawn with here; a backend's index is its slot in `shapes`' entries.
  private var backends: [any RingRasterizer] = []
  /// The shipped backends' indices in `backends`, made on first use.
  private var slotOfBackend: [RingBackend: Int] = [:]
  package private(set) var isClosed = false

  /// What the renderer is, for the default choice of a backend: read on the first draw that
  /// needs it (on OpenGL, in the renderer's context) and again after a reset.
  package var kind: RendererKind { classification.kind }
  private var classification: (kind: RendererKind, note: String?) {
    if let known = knownKind { return known }
    let known = RendererKind.of(renderer)
    knownKind = known
    return known
  }
  private var knownKind: (kind: RendererKind, note: String?)?

  /// Whether the `gpu` backend earned this renderer's trust: nil until asked (on the first
  /// default draw of an OpenGL renderer on a GPU), then for the renderer's life (a reset asks
  /// again). Refused, it says why.
  private var gpuVerdict: Result<Void, SDLError>?
  /// Seconds the `gpu` backend's check took here (compiling, its probe and the reference).
  package private(set) var gpuCheckSeconds: Double?

  /// The backend a draw of `rings` rings uses here when it asks for none: `spans` on SDL's
  /// software renderer; `gpu` on SDL's OpenGL renderers on a GPU, once it has shown it draws
  /// right there; else `gfx` for draws under a count of rings and `spans` from it
  /// (`RendererKind.preferred(rings:gpuTrusted:)`).
  ///
  /// Before the first default draw of an OpenGL renderer on a GPU trusts `gpu`, the backend
  /// compiles its shaders, checks GL's error flags and draws a probe that must read back what
  /// the `spans` kernel draws. If any of that fails, or a later `gpu` draw raises a GL error,
  /// the renderer draws without `gpu` from then on (the failed frame included) and
  /// `backendDescription(rings:)` says why. A draw that asks for `.gpu` by name is never
  /// redirected: it throws the error.
  /// - Parameter rings: the rings in the draw (five a loader).
  /// - Returns: the backend.
  public func defaultBackend(rings: Int = 0) -> RingBackend {
    kind.preferred(rings: rings, gpuTrusted: kind == .hardwareGL && gpuTrusted())
  }

  /// Which backend a draw of `rings` rings uses here when it asks for none, and why when that
  /// is not plainly the renderer's: one line, `"gpu"`, `"spans"`, `"gfx: the gpu fragment
  /// shader did not compile: 0:12(3): error: ..."`, `"gfx: llvmpipe (LLVM 15.0.6, 256 bits)
  /// rasterizes on the CPU"`.
  /// - Parameter rings: the rings in the draw (five a loader).
  /// - Returns: the backend's name, and after a colon the reason when there is one.
  public func backendDescription(rings: Int = 0) -> String {
    let backend = defaultBackend(rings: rings)
    let note = backend == .gpu ? nil : gpuFallbackReason ?? classification.note
    return note.map { "\(backend.rawValue): \($0)" } ?? backend.rawValue
  }

  /// Why a renderer on a GPU draws without `gpu` by default: its check failed, a draw of it
  /// raised a GL error, or its OpenGL context is too old for it; nil otherwise.
  package var gpuFallbackReason: String? {
    let (kind, note) = classification
    if kind == .otherAccelerated { return note }
    guard kind == .hardwareGL, !gpuTrusted(), case .failure(let error)? = gpuVerdict else {
      return nil
    }
    return Self.firstLine(of: error.message)
  }

  /// A driver's log cut at its first line (`GPURingProgram` joins lines with " | ").
  private static func firstLine(of message: String) -> String {
    guard let cut = message.range(of: " | ") else { return message }
    return String(message[..<cut.lowerBound])
  }

  /// Whether `gpu` is trusted here, its check run now if it never was.
  private func gpuTrusted() -> Bool {
    guard !isClosed else { return false }
    if gpuVerdict == nil { checkGPU() }
    if case .success? = gpuVerdict { return true }
    return false
  }

  /// Runs the `gpu` backend's check (`GPURingRasterizer.verify(on:)`) and keeps its verdict.
  private func checkGPU() {
    let start = SDL_GetPerformanceCounter()
    do throws(SDLError) {
      guard let gpu = try? rasterizer(.gpu) as? GPURingRasterizer else {
        throw SDLError("gpu backend", message: "closed", reason: .closed)
      }
      try gpu.verify(on: renderer)
      gpuVerdict = .success(())
    } catch {
      gpuVerdict = .failure(error)
    }
    gpuCheckSeconds =
      Double(SDL_GetPerformanceCounter() - start) / Double(SDL_GetPerformanceFrequency())
  }

  /// The loaders' side of `renderer`: nothing is made until the first draw on it.
  /// - Parameters:
  ///   - renderer: an SDL renderer; the object must not outlive it.
  ///   - surface: the surface `renderer` draws into, if you made it with
  ///     `SDL_CreateSoftwareRenderer` (nil otherwise: a window's software renderer is found
  ///     without it).
  ///   - budgetBytes: the most all shapes' caches hold together between draws, counted as
  ///     allocated, textures included (default 128 MiB, at least 1 MiB: a smaller value
  ///     counts as 1 MiB). A software renderer's gfx atlas of one shape paints at most a
  ///     quarter of it into textures.
  public init(
    _ renderer: OpaquePointer, surface: UnsafeMutablePointer<SDL_Surface>? = nil,
    budgetBytes: Int = 128 << 20
  ) {
    self.renderer = renderer
    self.surface = surface
    shapes = ShapeStore(budgetBytes: budgetBytes)
    traits = RendererTraits(of: renderer)
  }

  deinit { close() }

  /// The backend `backend` draws with here, made on first use.
  package func rasterizer(_ backend: RingBackend) throws(LoaderField.Error) -> any RingRasterizer {
    guard !isClosed else { throw .closed }
    if let i = slotOfBackend[backend] { return backends[i] }
    let made = backend.makeRasterizer()
    slotOfBackend[backend] = slot(of: made)
    return made
  }

  /// The cache `backend` keeps here for `shape`, if any (tests).
  package func cache(of shape: DashedRing, drawnWith backend: any RingRasterizer)
    -> (any RingShapeCache)?
  {
    guard let slot = backends.firstIndex(where: { $0 === backend }) else { return nil }
    return shapes.cache(of: shape, slot: slot)
  }

  /// `backend`'s index among the backends drawn with here, added if new.
  private func slot(of backend: any RingRasterizer) -> Int {
    if let i = backends.firstIndex(where: { $0 === backend }) { return i }
    backends.append(backend)
    return backends.count - 1
  }

  /// Draws `rings` with `backend`, each shaped like `shapes[ring.shape]` (pixels), centres
  /// relative to the viewport's corner at render scale 1 (the caller entered
  /// `HostRenderState`): the one path from a frame to a backend. Every shape is checked
  /// against the backend's limits first; each gets its cache from `shapes` (its handle in
  /// `ids`, when given, is used and updated, so a steady frame hashes no shape). The caller
  /// checked that the renderer is open before it touched SDL.
  /// - Returns: false when `shouldStop` cut the frame short.
  package func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shapes frameShapes: UnsafeBufferPointer<DashedRing>,
    ids: UnsafeMutableBufferPointer<ShapeID>? = nil,
    with backend: any RingRasterizer, region: PixelRegion, threads: Int,
    stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> Bool {
    guard try frameShapes.anyDrawable(by: backend.name, limit: backend.maximumReach),
      !rings.isEmpty, !region.isEmpty
    else { return true }
    let slot = slot(of: backend)
    let target = RasterTarget(
      renderer: renderer, traits: traits, region: region, attachedSurface: surface)
    return try shapes.draw(frameShapes, ids: ids, slot: slot, owner: backend) {
      (shape, share) throws(SDLError) in
      try backend.makeCache(for: shape, on: target, budgetBytes: share)
    } _: { (caches) throws(SDLError) in
      try backend.draw(
        RasterFrame(
          rings: rings, caches: caches, threads: threads, now: shapes.now, masks: shapes.masks),
        on: target,
        stoppingWhen: shouldStop)
    }
  }

  /// Draws `rings` with `asked`, or with the default here (`defaultBackend(rings:)`) when it
  /// is nil: a default `gpu` draw that fails is drawn by the backend the renderer would use
  /// without `gpu`, and unless the frame was only over `gpu`'s limits (`.tooLarge`), `gpu`
  /// loses the renderer's trust for good (`gpuFallbackReason` says why). The rest as
  /// `draw(_:shapes:ids:with:region:threads:stoppingWhen:)`.
  /// - Returns: whether every ring was drawn, and the backend that drew them.
  package func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shapes frameShapes: UnsafeBufferPointer<DashedRing>,
    ids: UnsafeMutableBufferPointer<ShapeID>?, asking asked: RingBackend?, region: PixelRegion,
    threads: Int, stoppingWhen shouldStop: () -> Bool
  ) throws(SDLError) -> (drawn: Bool, backend: RingBackend) {
    func rasterizer(_ b: RingBackend) throws(SDLError) -> any RingRasterizer {
      do {
        return try self.rasterizer(b)
      } catch {
        throw SDLError("LoaderRenderer", message: "closed", reason: .closed)
      }
    }
    let chosen = asked ?? defaultBackend(rings: rings.count)
    do {
      let drawn = try draw(
        rings, shapes: frameShapes, ids: ids, with: rasterizer(chosen), region: region,
        threads: threads, stoppingWhen: shouldStop)
      return (drawn, chosen)
    } catch  where asked == nil && chosen == .gpu {
      if error.reason != .tooLarge { gpuVerdict = .failure(error) }
      let fallback = kind.preferred(rings: rings.count, gpuTrusted: false)
      let drawn = try draw(
        rings, shapes: frameShapes, ids: ids, with: rasterizer(fallback), region: region,
        threads: threads, stoppingWhen: shouldStop)
      return (drawn, fallback)
    }
  }

  /// Draws `rings`, all of one `shape`, with `backend` in the renderer's current pixels (its
  /// scale set to 1 meanwhile; viewport and clip rect respected): a frame of rings without a
  /// field (tests, the bench's raster entries).
  @discardableResult
  package func draw(
    _ rings: UnsafeBufferPointer<RingInstance>, shape: DashedRing, with backend: any RingRasterizer,
    threads: Int = RotationEngine.availableCores, stoppingWhen shouldStop: () -> Bool = { false }
  ) throws(SDLError) -> Bool {
    guard !isClosed else { throw SDLError("LoaderRenderer", message: "closed", reason: .closed) }
    let state = HostRenderState.enter(renderer)
    defer { state.restore() }
    return try withUnsafePointer(to: shape) { (one) throws(SDLError) in
      try draw(
        rings, shapes: UnsafeBufferPointer(start: one, count: 1), with: backend,
        region: state.region, threads: threads, stoppingWhen: shouldStop)
    }
  }

  /// `draw(_:shape:with:threads:stoppingWhen:)` for an array.
  @discardableResult
  package func draw(
    _ rings: [RingInstance], shape: DashedRing, with backend: any RingRasterizer,
    threads: Int = RotationEngine.availableCores
  ) throws(SDLError) -> Bool {
    try rings.withUnsafeBufferPointer { (buf) throws(SDLError) in
      try draw(buf, shape: shape, with: backend, threads: threads)
    }
  }

  /// Bytes of masks, meshes and textures the loaders hold on this renderer now, as allocated:
  /// the total `budgetBytes` bounds after every draw.
  public var cachedBytes: Int { shapes.bytes }

  /// Lets every shape's caches go now (textures freed); the next draws rebuild what they
  /// need.
  public func purge() { shapes.purge() }

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
    traits = RendererTraits(of: renderer)
    knownKind = nil
    gpuVerdict = nil
    let backends = self.backends
    shapes.dropCaches(ofSlots: { backends[$0].cachesLiveOnRenderer })
    for b in backends { b.renderTargetsDidReset() }
  }

  /// Frees every texture and cache now; afterwards no call touches SDL and a draw on this
  /// renderer throws a `LoaderField.Error`. Call it before `SDL_DestroyRenderer` if the
  /// object may live on. Calling it again does nothing.
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    shapes.purge()
    for b in backends { b.close() }
    backends.removeAll()
    slotOfBackend.removeAll()
  }
}

/// Not `Sendable`: a `LoaderRenderer` belongs to the thread of the SDL renderer it draws on (see
/// <doc:InYourSDLProgram#Threads>).
@available(*, unavailable)
extension LoaderRenderer: Sendable {}
