import Foundation

extension LoaderExport {
  /// The Lottie file of a validated style and container.
  ///
  /// ```
  /// { v, fr, ip: 0, op: frames, w, h, layers: [
  ///     shape layer per ring (the last ring first: Lottie draws its first layer on top)
  ///       ks: a [0,0], p [cx,cy], r keyframes (t in frames, linear; a rest's ends equal, h 1)
  ///       shapes: [ group [ sh per dash (open Béziers about the origin), st, tr ] ]
  ///     background shape layer (rc + fl), when there is one ] }
  /// ```
  /// Keyframes carry both `s` and `e` (start and end value), which every Lottie player reads
  /// (older ones need `e`). All the dashes of a ring share one stroke, so overlapping round
  /// caps are one shape and a translucent colour blends once.
  struct LottieDocument {
    var style: LoaderStyle
    var arcs: DashArcs
    var width: Double
    var height: Double
    var background: RGBAColor?

    /// An eighth of a turn: the Bézier fit is then far below a pixel at any ring size.
    static let maximumSweep = Double.pi / 4

    var data: Data {
      let frames = LoaderExport.lottieFrameCount(of: style)
      let period = style.period
      let layout = RowLayout.frames(width: width, height: height, style: style)
      let dashes = arcs.arcs.map { Self.bezier($0, of: arcs) }
      var layers: [LottieJSON] = []
      for i in (0..<style.ringCount).reversed() {
        let motion = RingMotion(ring: i, style: style)
        let keys = motion.times.indices.map { j in
          let last = j + 1 == motion.times.count
          return (
            t: Self.round(motion.times[j] / period * Double(frames)),
            s: Self.round(motion.angles[j]),
            e: last ? nil : Self.round(motion.angles[j + 1]),
            hold: !last && motion.isRest(j)
          )
        }
        let stroke = Self.stroke(
          color: style.color(ofRing: i), width: Self.round(style.lineWidth), cap: style.lineCap)
        layers.append(
          Self.layer(
            index: style.ringCount - i, name: "ring \(i)", frames: frames,
            position: [Self.round(layout[i].midX), Self.round(layout[i].midY)],
            rotation: Self.keyframed(keys),
            shapes: [Self.group(name: "ring \(i)", items: dashes + [stroke, Self.identity])]))
      }
      if let background {
        let items = [
          Self.rectangle(width: Self.round(width), height: Self.round(height)),
          Self.fill(color: background), Self.identity,
        ]
        layers.append(
          Self.layer(
            index: style.ringCount + 1, name: "background", frames: frames, position: [0, 0],
            rotation: Self.fixed(0), shapes: [Self.group(name: "background", items: items)]))
      }
      return Self.animation(
        frameRate: LoaderExport.lottieFrameRate(of: style), frames: frames,
        width: Int(width.rounded(.up)), height: Int(height.rounded(.up)), layers: layers
      ).data
    }

    /// An arc as Lottie's open path: vertices, and each one's in and out handles relative to it.
    static func bezier(_ arc: DashArcs.Arc, of arcs: DashArcs) -> LottieJSON {
      let n = arc.angles.count
      var v: [[Double]] = []
      var i = [[Double]](repeating: [0, 0], count: n)
      var o = [[Double]](repeating: [0, 0], count: n)
      for (k, angle) in arc.angles.enumerated() {
        let p = arcs.point(at: angle)
        v.append([round(p.x), round(p.y)])
        guard k + 1 < n else { break }
        let h = arcs.bezierHandles(from: angle, to: arc.angles[k + 1])
        o[k] = [round(h.out.x), round(h.out.y)]
        i[k + 1] = [round(h.in.x), round(h.in.y)]
      }
      return path(vertices: v, inHandles: i, outHandles: o)
    }

    /// Three decimals (a thousandth of a point, of a degree or of a frame), never `-0`.
    static func round(_ x: Double) -> Double {
      let r = (x * 1000).rounded() / 1000
      return r == 0 ? 0 : r
    }
  }
}

// MARK: - The file's values (Bodymovin 5.x names)

extension LoaderExport.LottieDocument {
  /// The composition.
  static func animation(
    frameRate: Double, frames: Int, width: Int, height: Int, layers: [LottieJSON]
  ) -> LottieJSON {
    [
      "v": "5.7.4", "nm": "LoaderView", "fr": .number(frameRate), "ip": 0,
      "op": .number(Double(frames)), "w": .number(Double(width)),
      "h": .number(Double(height)), "ddd": 0, "assets": [], "layers": .array(layers),
    ]
  }

  /// A shape layer whose transform turns its shapes about their origin (`a` 0) and places that
  /// origin at `position`. `ddd` comes before `ks`: rlottie reads a transform as 3D unless told.
  static func layer(
    index: Int, name: String, frames: Int, position: [Double], rotation: LottieJSON,
    shapes: [LottieJSON]
  ) -> LottieJSON {
    [
      "ddd": 0, "ind": .number(Double(index)), "ty": 4, "nm": .string(name), "sr": 1,
      "ks": [
        "o": fixed(100), "r": rotation, "p": fixed(.numbers(position + [0])),
        "a": fixed([0, 0, 0]), "s": fixed([100, 100, 100]),
      ],
      "ao": 0, "shapes": .array(shapes), "ip": 0, "op": .number(Double(frames)), "st": 0, "bm": 0,
    ]
  }

  /// `{"a": 0, "k": value}`: a property that does not change.
  static func fixed(_ value: LottieJSON) -> LottieJSON { ["a": 0, "k": value] }

  /// `{"a": 1, "k": [keyframes]}`, each keyframe `{"t", "s", "e", "i", "o", "h"}`: value `s` at
  /// frame `t`, moving to `e` by the next keyframe along the easing handles `o`, `i` (`(0, 0)`
  /// and `(1, 1)`: linear), or held with `h: 1`. The last one has only `t` and `s`.
  static func keyframed(_ keys: [(t: Double, s: Double, e: Double?, hold: Bool)]) -> LottieJSON {
    let linearOut: LottieJSON = ["x": [0], "y": [0]]
    let linearIn: LottieJSON = ["x": [1], "y": [1]]
    return [
      "a": 1,
      "k": .array(
        keys.map { k in
          guard let e = k.e else { return ["t": .number(k.t), "s": [.number(k.s)]] }
          var pairs: [(String, LottieJSON)] = [
            ("t", .number(k.t)), ("s", [.number(k.s)]), ("e", [.number(e)]), ("i", linearIn),
            ("o", linearOut),
          ]
          if k.hold { pairs.append(("h", 1)) }
          return .object(pairs)
        }),
    ]
  }

  // Shape items. rlottie reads a shape's `ty` first and skips every key before it, so `ty`
  // leads each one.

  static func group(name: String, items: [LottieJSON]) -> LottieJSON {
    ["ty": "gr", "nm": .string(name), "it": .array(items)]
  }

  /// An open path: vertices `v`, and each vertex's in (`i`) and out (`o`) handles relative to it.
  static func path(vertices: [[Double]], inHandles: [[Double]], outHandles: [[Double]])
    -> LottieJSON
  {
    [
      "ty": "sh",
      "ks": fixed([
        "c": false, "v": .array(vertices.map(LottieJSON.numbers)),
        "i": .array(inHandles.map(LottieJSON.numbers)),
        "o": .array(outHandles.map(LottieJSON.numbers)),
      ]),
    ]
  }

  /// Lottie's caps are 1 butt and 2 round; joins 2 round (an arc has no corners).
  static func stroke(color: RGBAColor, width: Double, cap: LineCap) -> LottieJSON {
    [
      "ty": "st", "c": fixed(rgb(color)), "o": fixed(.number(opacity(color))),
      "w": fixed(.number(width)), "lc": cap == .round ? 2 : 1, "lj": 2, "ml": 4,
    ]
  }

  static func fill(color: RGBAColor) -> LottieJSON {
    ["ty": "fl", "c": fixed(rgb(color)), "o": fixed(.number(opacity(color))), "r": 1]
  }

  /// A `width` x `height` rectangle from the origin.
  static func rectangle(width: Double, height: Double) -> LottieJSON {
    [
      "ty": "rc", "d": 1, "p": fixed(.numbers([width / 2, height / 2])),
      "s": fixed(.numbers([width, height])), "r": fixed(0),
    ]
  }

  /// The identity transform every group ends with.
  static let identity: LottieJSON = [
    "ty": "tr", "p": fixed([0, 0]), "a": fixed([0, 0]), "s": fixed([100, 100]), "r": fixed(0),
    "o": fixed(100),
  ]

  /// Opaque `[r, g, b, 1]` in `0...1`, four decimals (within a 50th of a level).
  static func rgb(_ c: RGBAColor) -> LottieJSON {
    .numbers([c.r, c.g, c.b].map { (Double($0) / 255 * 10_000).rounded() / 10_000 } + [1])
  }

  /// The colour's alpha as Lottie's opacity, `0...100`.
  static func opacity(_ c: RGBAColor) -> Double { (Double(c.a) / 255 * 100_000).rounded() / 1000 }
}

/// A JSON value whose objects keep their keys in the order written.
///
/// rlottie (Samsung's player, in Telegram and Tizen) reads a shape object's `"ty"` first and
/// skips every key before it, so a Lottie file's key order matters. `JSONEncoder` writes keys
/// in hash order (different on every run) or sorted (`"ty"` after `"ks"`), never in order; this
/// tree and its writer do.
enum LottieJSON: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
  case number(Double)
  case string(String)
  case bool(Bool)
  case array([LottieJSON])
  case object([(String, LottieJSON)])

  init(dictionaryLiteral elements: (String, LottieJSON)...) { self = .object(elements) }
  init(arrayLiteral elements: LottieJSON...) { self = .array(elements) }
  init(integerLiteral value: Int) { self = .number(Double(value)) }
  init(stringLiteral value: String) { self = .string(value) }
  init(booleanLiteral value: Bool) { self = .bool(value) }

  static func numbers(_ values: [Double]) -> LottieJSON { .array(values.map(LottieJSON.number)) }

  /// Compact JSON text, UTF-8.
  var data: Data {
    var out = ""
    write(to: &out)
    return Data(out.utf8)
  }

  private func write(to out: inout String) {
    switch self {
    case .number(let x):
      out += Self.text(of: x)
    case .string(let s):
      Self.write(string: s, to: &out)
    case .bool(let b):
      out += b ? "true" : "false"
    case .array(let items):
      out += "["
      for (k, item) in items.enumerated() {
        if k > 0 { out += "," }
        item.write(to: &out)
      }
      out += "]"
    case .object(let pairs):
      out += "{"
      for (k, (key, value)) in pairs.enumerated() {
        if k > 0 { out += "," }
        Self.write(string: key, to: &out)
        out += ":"
        value.write(to: &out)
      }
      out += "}"
    }
  }

  /// Whole numbers without a fraction (`23`), others in Swift's shortest round-trip form
  /// (`22.913`); JSON has no infinity or NaN, which a validated style never produces (0 then).
  private static func text(of x: Double) -> String {
    guard x.isFinite else { return "0" }
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return "\(x)"
  }

  /// A JSON string: `"` and `\` escaped, control characters as `\u00XX`.
  private static func write(string s: String, to out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
