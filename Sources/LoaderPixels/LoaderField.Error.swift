import LoaderCore

extension LoaderField {
  /// Why a call was refused: the library's one error. `reason` says what kind of thing was
  /// wrong, for a program to act on; `description` says which argument or state, in one line,
  /// with the limits. Every public call that can fail throws this, and leaves the field as it
  /// was.
  ///
  /// ```swift
  /// do {
  ///   try view.draw(on: loaders, in: frame, at: now)
  /// } catch {
  ///   switch error.reason {
  ///   case .closed: loaders = LoaderRenderer(renderer)  // draw on a new one
  ///   case .backendFailed: print("SDL failed: \(error)")  // try again next frame
  ///   default: print("loader: \(error)")  // names the argument and its limits
  ///   }
  /// }
  /// ```
  public struct Error: Swift.Error, Sendable, CustomStringConvertible {
    /// What kind of thing was wrong. A later version may add reasons: switch with a
    /// `default`.
    public enum Reason: Sendable, Hashable, CaseIterable {
      /// The `LoaderRenderer` drawn on was closed: make a new one for the renderer.
      case closed
      /// A time that is not finite, before the loaders' past, or past their last time.
      case time
      /// A frame that is not finite with a size >= 0 (> 0 for a container), or a render
      /// scale that is not finite and > 0.
      case frame
      /// A `PixelBuffer` a draw cannot use: null or misaligned, rows too short, sizes or a
      /// density out of range.
      case buffer
      /// The handle of a loader that was removed.
      case removedLoader
      /// A value outside its limits: a style, speed, opacity, slow motion's factor, frame
      /// rate, thread count, or a negative count or capacity.
      case outOfRange
      /// A ring larger than the backend draws, or than the renderer's textures hold; or more
      /// loaders than a field holds (`LoaderField.maximumCount`), as a count or a capacity.
      case tooLarge
      /// An SDL call failed while drawing: its name and `SDL_GetError()` in `description`.
      case backendFailed
      /// The backend asked for does not run on this renderer (`gpu` off SDL's OpenGL
      /// renderers, or on a context without instanced draws): `description` says why.
      case unsupported
    }

    /// What was wrong, exactly: the package's tests match it, `description` words it.
    package enum Detail: Sendable {
      case invalidStyle(LoaderStyle.Error)
      case invalidSpeed(Double)
      case invalidFrame(x: Float, y: Float, width: Float, height: Float)
      case invalidLoaderFrame(x: Float, y: Float, width: Float, height: Float)
      case invalidOpacity(Double)
      case invalidRenderScale(x: Float, y: Float)
      case invalidThreads(Int)
      /// A negative count of loaders to add.
      case invalidLoaderCount(Int)
      /// Adding `adding` loaders to a field of `count` would pass its `maximumCount`, `limit`.
      case tooManyLoaders(adding: Int, count: Int, limit: Int)
      /// A capacity below 0 or past `limit`, the field's `maximumCount`.
      case invalidCapacity(Int, limit: Int)
      case closed
      case invalidMotion(Double)
      case invalidFrameRate(Double)
      case timeNotFinite(Double)
      case timeBeforePast(time: Double, earliest: Double)
      case engine(RotationEngine.Error)
      case layout(GridLayout.Error)
      case failed(RasterError)
      case invalidBuffer(String)
    }

    package let detail: Detail

    /// What kind of thing was wrong (see `Reason`).
    public var reason: Reason {
      switch detail {
      case .closed: .closed
      case .timeNotFinite, .timeBeforePast: .time
      case .invalidFrame, .invalidLoaderFrame, .invalidRenderScale: .frame
      case .invalidBuffer: .buffer
      case .invalidStyle, .invalidSpeed, .invalidOpacity, .invalidThreads, .invalidMotion,
        .invalidFrameRate, .invalidLoaderCount:
        .outOfRange
      case .tooManyLoaders: .tooLarge
      case .invalidCapacity(let n, _): n < 0 ? .outOfRange : .tooLarge
      case .failed(let e): e.reason
      case .layout(let e):
        switch e {
        case .invalidSize: .frame
        case .invalidCount, .invalidStyle, .invalidGutter: .outOfRange
        }
      case .engine(let e):
        switch e {
        case .staleLoader: .removedLoader
        case .timeNotFinite, .timeOutOfRange, .timeBeforeNow, .timeDecreasing,
          .renderTimeOutsideWindow:
          .time
        case .invalidStep, .invalidStyle, .ringOutOfRange, .bufferTooSmall, .invalidThreadCount:
          .outOfRange
        case .invalidCapacity(let n): n < 0 ? .outOfRange : .tooLarge
        }
      }
    }

    package static func invalidStyle(_ e: LoaderStyle.Error) -> Self {
      Self(detail: .invalidStyle(e))
    }
    package static func invalidSpeed(_ v: Double) -> Self { Self(detail: .invalidSpeed(v)) }
    /// A container that is not finite with a size > 0.
    package static func invalidFrame(_ f: LoaderRect) -> Self {
      Self(detail: .invalidFrame(x: f.x, y: f.y, width: f.width, height: f.height))
    }
    /// A loader's own frame (`.free` layout) that is not finite with a size >= 0.
    package static func invalidLoaderFrame(_ f: LoaderRect) -> Self {
      Self(detail: .invalidLoaderFrame(x: f.x, y: f.y, width: f.width, height: f.height))
    }
    package static func invalidOpacity(_ v: Double) -> Self { Self(detail: .invalidOpacity(v)) }
    package static func invalidRenderScale(x: Float, y: Float) -> Self {
      Self(detail: .invalidRenderScale(x: x, y: y))
    }
    package static func invalidThreads(_ n: Int) -> Self { Self(detail: .invalidThreads(n)) }
    package static func invalidLoaderCount(_ n: Int) -> Self {
      Self(detail: .invalidLoaderCount(n))
    }
    package static func tooManyLoaders(adding n: Int, to count: Int, limit: Int) -> Self {
      Self(detail: .tooManyLoaders(adding: n, count: count, limit: limit))
    }
    package static func invalidCapacity(_ n: Int, limit: Int) -> Self {
      Self(detail: .invalidCapacity(n, limit: limit))
    }
    package static let closed = Self(detail: .closed)
    package static func invalidMotion(_ v: Double) -> Self { Self(detail: .invalidMotion(v)) }
    package static func invalidFrameRate(_ v: Double) -> Self { Self(detail: .invalidFrameRate(v)) }
    package static func timeNotFinite(_ t: Double) -> Self { Self(detail: .timeNotFinite(t)) }
    /// `time` maps before the engine's past; `earliest` is the earliest time it can show.
    package static func timeBeforePast(time: Double, earliest: Double) -> Self {
      Self(detail: .timeBeforePast(time: time, earliest: earliest))
    }
    package static func engine(_ e: RotationEngine.Error) -> Self { Self(detail: .engine(e)) }
    package static func layout(_ e: GridLayout.Error) -> Self { Self(detail: .layout(e)) }
    /// A part of the drawing refused or failed (a backend's limit, an SDL call): the one
    /// place a `RasterError` becomes the public error, its `reason` kept.
    package static func failed(_ e: RasterError) -> Self { Self(detail: .failed(e)) }
    /// A `PixelBuffer` a draw cannot use: why.
    package static func invalidBuffer(_ why: String) -> Self { Self(detail: .invalidBuffer(why)) }

    /// What was wrong, in one line.
    public var description: String {
      switch detail {
      case .invalidStyle(let e): "invalid loader style: \(e)"
      case .invalidSpeed(let s):
        "speed must be in \(LoaderField.speedRange.lowerBound)...\(LoaderField.speedRange.upperBound), got \(s)"
      case .invalidFrame(let x, let y, let w, let h):
        x.isFinite && y.isFinite
          ? "frame must have a finite size > 0, got \(w)x\(h)"
          : "frame must have a finite origin, got (\(x), \(y))"
      case .invalidLoaderFrame(let x, let y, let w, let h):
        "a loader's frame must be finite with a size >= 0, got \(w)x\(h) at (\(x), \(y))"
      case .invalidOpacity(let o): "opacity must be in 0...1, got \(o)"
      case .invalidRenderScale(let x, let y):
        "the renderer's scale must be finite and > 0, got \(x)x\(y)"
      case .invalidThreads(let n):
        "thread count must be 1...\(LoaderField.maximumThreads), got \(n)"
      case .invalidLoaderCount(let n): "a count of loaders to add must be >= 0, got \(n)"
      case .tooManyLoaders(let n, let count, let limit):
        "cannot add \(n) loaders to a field of \(count): a field of this style holds at most"
          + " \(limit) (LoaderField.maximumCount)"
      case .invalidCapacity(let n, let limit):
        "capacity must be 0...\(limit) loaders (LoaderField.maximumCount), got \(n)"
      case .closed: "the LoaderRenderer was closed"
      case .invalidMotion(let m): "a slow motion's factor must be in (0, 1), got \(m)"
      case .invalidFrameRate(let r): "a maximum frame rate must be finite and > 0, got \(r)"
      case .timeNotFinite(let t): "time must be finite, got \(t)"
      case .timeBeforePast(let t, let e):
        "time \(millisecondText(t)) is before the loaders' past (the earliest time they can"
          + " show is \(millisecondText(e, rounding: .up)));"
          + " make a new one to go back"
      case .engine(let e): "\(e)"
      case .layout(let e): "\(e)"
      case .failed(let e): "\(e)"
      case .invalidBuffer(let why): "the pixel buffer cannot be drawn into: \(why)"
      }
    }
  }
}
