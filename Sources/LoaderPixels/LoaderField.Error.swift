import LoaderCore

extension LoaderField {
  /// Why a call was refused: `description` names the argument or the state that was wrong,
  /// in one line, with the limits. Every public call that can fail throws this, and leaves the
  /// field as it was.
  ///
  /// Refused: a style that fails `LoaderStyle.validate()`; a time that is not finite, or that
  /// maps before the field's past (the motion cannot go back: make a new field) or past its
  /// last representable time (about 140,000 years of loader time); a removed loader's handle;
  /// a container or loader frame that is not finite with a size >= 0 (> 0 for the container);
  /// a render scale that is not finite and > 0; a speed outside `speedRange`; an opacity
  /// outside `0...1`; a slow motion's factor outside `(0, 1)`; a frame rate that is not finite
  /// and > 0; a thread count below 1; a `LoaderRenderer` that was closed; a `PixelBuffer` that
  /// cannot be drawn into (null or misaligned, rows too short, sizes that overflow, a density
  /// that is not finite and > 0); and a call
  /// that failed (an SDL call's name and `SDL_GetError()` when drawing on a renderer).
  public struct Error: Swift.Error, Sendable, CustomStringConvertible {
    package enum Reason: Sendable {
      case invalidStyle(LoaderStyle.Error)
      case invalidSpeed(Double)
      case invalidFrame(width: Float, height: Float)
      case invalidLoaderFrame(x: Float, y: Float, width: Float, height: Float)
      case invalidOpacity(Double)
      case invalidRenderScale(x: Float, y: Float)
      case invalidThreads(Int)
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
    /// What was wrong, for the package's tests to match.
    package let reason: Reason

    package static func invalidStyle(_ e: LoaderStyle.Error) -> Self {
      Self(reason: .invalidStyle(e))
    }
    package static func invalidSpeed(_ v: Double) -> Self { Self(reason: .invalidSpeed(v)) }
    package static func invalidFrame(width: Float, height: Float) -> Self {
      Self(reason: .invalidFrame(width: width, height: height))
    }
    /// A loader's own frame (`.free` layout) is not finite with a size >= 0.
    package static func invalidLoaderFrame(x: Float, y: Float, width: Float, height: Float) -> Self
    {
      Self(reason: .invalidLoaderFrame(x: x, y: y, width: width, height: height))
    }
    package static func invalidOpacity(_ v: Double) -> Self { Self(reason: .invalidOpacity(v)) }
    package static func invalidRenderScale(x: Float, y: Float) -> Self {
      Self(reason: .invalidRenderScale(x: x, y: y))
    }
    package static func invalidThreads(_ n: Int) -> Self { Self(reason: .invalidThreads(n)) }
    package static let closed = Self(reason: .closed)
    package static func invalidMotion(_ v: Double) -> Self { Self(reason: .invalidMotion(v)) }
    package static func invalidFrameRate(_ v: Double) -> Self { Self(reason: .invalidFrameRate(v)) }
    package static func timeNotFinite(_ t: Double) -> Self { Self(reason: .timeNotFinite(t)) }
    /// `time` maps before the engine's past; `earliest` is the earliest time it can show.
    package static func timeBeforePast(time: Double, earliest: Double) -> Self {
      Self(reason: .timeBeforePast(time: time, earliest: earliest))
    }
    package static func engine(_ e: RotationEngine.Error) -> Self { Self(reason: .engine(e)) }
    package static func layout(_ e: GridLayout.Error) -> Self { Self(reason: .layout(e)) }
    /// A part of the drawing failed: an SDL call (LoaderSDL's `SDLError`) or a kernel's refusal.
    package static func failed(_ e: RasterError) -> Self { Self(reason: .failed(e)) }
    /// A `PixelBuffer` a draw cannot use: why.
    package static func invalidBuffer(_ why: String) -> Self { Self(reason: .invalidBuffer(why)) }

    /// What was wrong, in one line.
    public var description: String {
      switch reason {
      case .invalidStyle(let e): "invalid loader style: \(e)"
      case .invalidSpeed(let s):
        "speed must be in \(LoaderField.speedRange.lowerBound)...\(LoaderField.speedRange.upperBound), got \(s)"
      case .invalidFrame(let w, let h): "frame must have a finite size > 0, got \(w)x\(h)"
      case .invalidLoaderFrame(let x, let y, let w, let h):
        "a loader's frame must be finite with a size >= 0, got \(w)x\(h) at (\(x), \(y))"
      case .invalidOpacity(let o): "opacity must be in 0...1, got \(o)"
      case .invalidRenderScale(let x, let y):
        "the renderer's scale must be finite and > 0, got \(x)x\(y)"
      case .invalidThreads(let n): "thread count must be >= 1, got \(n)"
      case .closed: "the LoaderRenderer was closed"
      case .invalidMotion(let m): "a slow motion's factor must be in (0, 1), got \(m)"
      case .invalidFrameRate(let r): "a maximum frame rate must be finite and > 0, got \(r)"
      case .timeNotFinite(let t): "time must be finite, got \(t)"
      case .timeBeforePast(let t, let e):
        "time \(t) is before the loaders' past (the earliest time they can show is \(e));"
          + " make a new one to go back"
      case .engine(let e): "\(e)"
      case .layout(let e): "\(e)"
      case .failed(let e): "\(e)"
      case .invalidBuffer(let why): "the pixel buffer cannot be drawn into: \(why)"
      }
    }
  }
}
