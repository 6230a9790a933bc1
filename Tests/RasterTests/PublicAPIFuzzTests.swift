import CSwiftLoaderSDL2
import Dispatch
import LoaderCore
import LoaderSDL
import SwiftLoaderCanvas
import SwiftLoaderTestSupport
import Testing

/// Hostile values through the public library API, in seeded random order: NaN, infinities,
/// huge and tiny times, frames, render scales, speeds and rates, toggles at any time, stale
/// ids, removed loaders, every backend, and counts, capacities, thread counts and budgets of
/// 0, -1, `Int.max`, `1 << 40` and their limits +- 1 (where the call would not then add
/// millions of loaders: `CountLimitsTests` feeds those in a child process). Every call must
/// return (a trap ends the test process) with its result or a `LoaderField.Error` whose
/// description is a sentence, within `callBound` (the docs bound each call by the loader
/// count, never by a time gap; a time gap walked step by step took 1 s a simulated week).
@Suite struct PublicAPIFuzzTests {
  /// The longest any one call may take here (a debug build, a shared machine, a field of at
  /// most 60 loaders): a walk through a long gap would take minutes.
  static let callBound = 2.0

  static let times: [Double] = [
    0, 0.35, 1.3, 1e-300, -1, -1e-300, .nan, .infinity, -.infinity, 8e8, 3.2e9, 4e12, 5e12,
    1e300, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
  ]
  static let scales: [Float] = [1, 2, 1.5, 0.5, 3, 0, -1, .nan, .infinity, 1e-6, 300, 1e6]
  static let sizes: [Float] = [
    390, 120, 290, 8, 1, 0.5, 0, -5, .nan, .infinity, 1e-30, 1e30, .greatestFiniteMagnitude,
  ]
  static let speeds: [Double] = [1, 0.001, 1000, 0.5, 0, -1, .nan, .infinity, 1e-300, 1e300]
  static let rates: [Double?] = [nil, 20, 60, 0, -1, .nan, .infinity, 1e-300, 1e300]
  /// Loader counts: a few a field takes, and counts past every limit (the seed's
  /// `maximumCount` is 2^24).
  static let counts = [0, 1, 2, -1, -5, Int.min, Int.max, 1 << 40, (1 << 24) + 1]
  /// Capacities: the same, and a few a field reserves.
  static let capacities = [0, 16, 1000, -1, Int.min, Int.max, 1 << 40, (1 << 24) + 1]
  /// Thread counts, 1...256 taken.
  static let threadCounts = [1, 2, 3, 0, -1, 64, 255, 256, 257, Int.max, Int.min, 1 << 40]
  /// Byte budgets: any is taken, below 1 MiB as 1 MiB.
  static let budgets = [
    128 << 20, 32 << 20, 0, -1, Int.min, Int.max, 1 << 40, (1 << 20) - 1, (1 << 20) + 1,
  ]
  static let motions: [LoaderField.Motion] = [
    .full, .pulse, .still, .slow(factor: 0.25), .slow(factor: 0), .slow(factor: .nan),
    .slow(factor: 1), .slow(factor: -2),
  ]

  /// Runs `call`, failing when it takes longer than `callBound`; a thrown error must be the
  /// library's, with a description.
  @discardableResult
  static func bounded(_ what: String, _ call: () throws -> Void) -> Bool {
    let start = DispatchTime.now().uptimeNanoseconds
    var returned = false
    do {
      try call()
      returned = true
    } catch let e as LoaderField.Error {
      #expect(!e.description.isEmpty, "\(what)")
    } catch {
      Issue.record("\(what): not a LoaderField.Error: \(error)")
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    #expect(seconds < callBound, "\(what) took \(seconds) s")
    return returned
  }

  @Test(arguments: [UInt64(1), 2, 3, 20_261_201])
  func hostileCallsReturnWithinTheirBound(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    var counting = SplitMix64(seed: ~seed)
    func pick<T>(_ values: [T]) -> T { values[Int(rng.next() % UInt64(values.count))] }
    let canvas = try OffscreenCanvas(width: 320, height: 200)
    let loaders = canvas.loaderRenderer
    let view = LoaderView(isAnimating: true)
    let field = try LoaderField(style: .seed, layout: .grid, threads: 2)
    var ids: [LoaderID] = []
    // Mostly a clock moving on, sometimes a hostile value.
    var clock = 0.0
    func time() -> Double {
      if rng.nextUnit() < 0.7 {
        clock += rng.nextUnit() < 0.9 ? rng.nextUnit() * 0.1 : rng.nextUnit() * 1e9
        return clock
      }
      let t = pick(Self.times)
      // A far time the loaders accept moves them there for good: the clock follows it.
      if t.isFinite, t > clock, t < 1e12 { clock = t }
      return t
    }
    // A usable frame and render scale most of the time, so that draws draw.
    func frame() -> SDL_FRect {
      if rng.nextUnit() < 0.6 {
        return SDL_FRect(
          x: Float(rng.nextUnit() * 100), y: Float(rng.nextUnit() * 100),
          w: Float(8 + rng.nextUnit() * 400), h: Float(8 + rng.nextUnit() * 200))
      }
      return SDL_FRect(
        x: pick(Self.sizes), y: pick(Self.sizes), w: pick(Self.sizes), h: pick(Self.sizes))
    }
    var drawn = 0
    for step in 0..<300 {
      let op = rng.next() % 20
      let label = "seed \(seed) step \(step) op \(op)"
      // Each draw under a render scale of the pool (restored after).
      let s = rng.nextUnit() < 0.6 ? Float(0.5 + rng.nextUnit() * 2) : pick(Self.scales)
      SDL_RenderSetScale(canvas.renderer, s, s)
      defer { SDL_RenderSetScale(canvas.renderer, 1, 1) }
      // Counts, capacities, thread counts and budgets come from a stream of their own, on
      // some steps before the step's own call, so that the calls above stay the ones each
      // seed always made.
      if counting.nextUnit() < 0.2 {
        let count = "seed \(seed) step \(step) count"
        func choose<T>(_ values: [T]) -> T { values[Int(counting.next() % UInt64(values.count))] }
        switch counting.next() % 3 {
        case 0:
          Self.bounded(count) {
            let n = choose(Self.counts)
            // A count the field takes adds loaders: at most 60 of them in all.
            guard n < 0 || n > 2 || field.count + n <= 60 else { return }
            try field.addLoaders(n, isAnimating: counting.next() % 2 == 0, at: clock)
            ids.append(contentsOf: field.loaders.suffix(max(0, min(n, 2))))
          }
        case 1:
          Self.bounded(count) {
            let other = try LoaderField(
              capacity: choose(Self.capacities), threads: choose(Self.threadCounts))
            #expect(other.count == 0 && (1...256).contains(other.threads), "\(count)")
          }
        default: Self.bounded(count) { loaders.budgetBytes = choose(Self.budgets) }
        }
      }
      switch op {
      case 0, 1:
        if Self.bounded(label, { try view.draw(on: loaders, in: frame(), at: time()) }) {
          drawn += 1
        }
      case 2: Self.bounded(label) { try view.setAnimating(rng.next() % 2 == 0, at: time()) }
      case 3: Self.bounded(label) { try view.setSpeed(pick(Self.speeds), at: time()) }
      case 4: Self.bounded(label) { try view.setMotion(pick(Self.motions)) }
      case 5: Self.bounded(label) { try view.setMaximumFrameRate(pick(Self.rates)) }
      case 6: Self.bounded(label) { _ = view.nextChange(after: time()) }
      case 7: Self.bounded(label) { _ = try view.angles(at: time()) }
      case 8:
        Self.bounded(label) {
          view.backend = pick([nil, .spans, .gfx, .gpu])
          view.fitsFrame = rng.next() % 2 == 0
        }
      case 9:
        Self.bounded(label) {
          guard field.count < 60 else { return }
          ids.append(try field.addLoader(isAnimating: rng.next() % 2 == 0, at: time()))
        }
      case 10:
        Self.bounded(label) {
          guard !ids.isEmpty else { return }
          try field.remove(pick(ids))  // sometimes already removed: a stale id
        }
      case 11:
        Self.bounded(label) {
          guard !ids.isEmpty else { return }
          try field.setAnimating(rng.next() % 2 == 0, loader: pick(ids), at: time())
        }
      case 12: Self.bounded(label) { try field.setAnimatingAll(rng.next() % 2 == 0, at: time()) }
      case 13: Self.bounded(label) { try field.setThreads(pick(Self.threadCounts)) }
      case 14: Self.bounded(label) { try field.setGutter(pick([0, 0.25, 0.9, 1, -0.1, .nan])) }
      case 15:
        Self.bounded(label) {
          let f = frame()
          _ = try field.arrangement(width: Double(f.w), height: Double(f.h))
        }
      case 16:
        Self.bounded(label) {
          field.layout = pick([.row, .fittedRow, .grid])
          field.backend = pick([nil, .spans, .gfx, .gpu])
        }
      case 17: Self.bounded(label) { try field.setSpeed(pick(Self.speeds), at: time()) }
      case 18: Self.bounded(label) { _ = field.nextChange(after: time()) }
      default:
        if Self.bounded(label, { try field.draw(on: loaders, in: frame(), at: time()) }) {
          drawn += 1
        }
      }
    }
    #expect(drawn >= 5, "the hostile values left few draws that drew: \(drawn)")
    // The canvas and its loaders' side (its rasterizers and caches, hit by every hostile
    // frame, scale and backend above) still draw: a new field of the seed, at scale 1 in a
    // sane frame, draws whole and leaves ink with every backend. (The fuzzed field and view
    // themselves may be past use by design: a speed change at a caller time of 1e300 leaves
    // no later time they can show.)
    SDL_RenderSetScale(canvas.renderer, 1, 1)
    let after = try LoaderField(style: .seed, layout: .grid, threads: 2)
    try after.addLoaders(3, isAnimating: true, at: 0)
    // (`gpu` needs OpenGL: on this software canvas it throws `.unsupported`, as a hostile
    // pick of it above did.)
    for (k, backend) in RingBackend.allCases.enumerated() where backend != .gpu {
      after.backend = backend
      canvas.clear(RGBAColor(r: 255, g: 255, b: 255))
      let whole = try after.draw(
        on: loaders, in: SDL_FRect(x: 10, y: 10, w: 300, h: 180), at: 0.5 + Double(k))
      canvas.flush()
      let inked = canvas.argbPixels().count { $0 & 0xFF_FFFF != 0xFF_FFFF }
      #expect(whole, "seed \(seed) \(backend): the draw stopped")
      #expect(inked > 0, "seed \(seed) \(backend): no ink after the fuzz")
    }
  }
}
