import Foundation
import Testing

@testable import LoaderCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct LoaderExportMotionTests {
  /// Difference of two angles on the circle, degrees, in `[0, 180]`.
  func circular(_ a: Double, _ b: Double) -> Double {
    let d = (a - b).truncatingRemainder(dividingBy: 360)
    return min(abs(d), 360 - abs(d))
  }

  /// The keyframes of every ring, read at many times of the period, against SPEC's model
  /// (`LoaderTimeline`) in its steady state: turns shorter than, equal to, a multiple of and
  /// longer than the period, and several turns a trigger.
  @Test func keyframesFollowSPECsTimingInTheSteadyState() {
    for rings in [1, 2, 3, 5] {
      for stagger in [0.1, 0.25, 0.4] {
        let period = Double(rings) * stagger
        for turn in [0.05, 0.25, 0.6, period, 2 * period, 2.5 * period, 3.7] {
          for degrees in [360.0, 720, -360] {
            let s = LoaderStyle.timing(rings: rings, stagger: stagger, turn: turn, degrees: degrees)
            let settle = ((turn / period).rounded(.up) + 2) * period
            let timeline = LoaderTimeline(style: s, animatingFrom: 0)
            for ring in 0..<rings {
              let motion = LoaderExport.RingMotion(ring: ring, style: s)
              for k in 0...40 {
                let t = period * Double(k) / 40
                let expected = timeline.angle(ofRing: ring, at: settle + t)
                #expect(
                  circular(motion.angle(at: t), expected) < 1e-6,
                  "rings \(rings) stagger \(stagger) turn \(turn) x\(degrees) ring \(ring) t \(t)")
              }
            }
          }
        }
      }
    }
  }

  @Test func theSeedsKeyframes() {
    let r0 = LoaderExport.RingMotion(ring: 0, style: .seed)
    #expect(r0.times == [0, 0.6, 1.25])
    #expect(r0.angles == [0, 360, 360])
    #expect(!r0.isRest(0) && r0.isRest(1))
    // Ring 4's turn starts at 1.0 and runs 0.35 s into the next period.
    let r4 = LoaderExport.RingMotion(ring: 4, style: .seed)
    #expect(r4.times.count == 4)
    #expect(abs(r4.times[1] - 0.35) < 1e-12 && r4.times[2] == 1.0 && r4.times[3] == 1.25)
    #expect(abs(r4.angles[0] - 150) < 1e-9)
    #expect(abs(r4.angles[1] - 360) < 1e-9 && abs(r4.angles[3] - 510) < 1e-9)
    #expect(r4.angles[2] == r4.angles[1])
    #expect(r4.isRest(1))
  }

  /// Whatever the timing, the loop closes: one whole turn a period, times from 0 to the period
  /// and increasing, at most four keyframes, the start in `[0, 360)`.
  @Test func everyPeriodEndsOneTurnOnAndKeepsItsShape() {
    for turn in [0.001, 0.3, 1.25, 1.2500000001, 10, 86_400] {
      for stagger in [0.001, 0.25, 7] {
        let s = LoaderStyle.timing(rings: 5, stagger: stagger, turn: turn)
        let period = 5 * stagger
        for ring in 0..<5 {
          let m = LoaderExport.RingMotion(ring: ring, style: s)
          #expect(m.times.first == 0 && m.times.last == period)
          #expect(zip(m.times, m.times.dropFirst()).allSatisfy { $0 < $1 })
          #expect(m.times.count <= 4 && m.times.count == m.angles.count)
          #expect(m.angles[0] >= 0 && m.angles[0] < 360)
          #expect(abs(m.angles.last! - m.angles[0] - 360) < 1e-9, "turn \(turn) stagger \(stagger)")
          #expect(zip(m.angles, m.angles.dropFirst()).allSatisfy { $0 <= $1 })
        }
      }
    }
  }
}

@Suite struct LoaderExportGeometryTests {
  @Test func theSeedsArcs() {
    let arcs = LoaderExport.DashArcs(style: .seed, maximumSweep: .pi / 4)
    #expect(arcs.radius == 23 && arcs.lineWidth == 4 && arcs.cap == .round)
    #expect(arcs.arcs.count == 19)
    #expect(arcs.arcs[0].angles[0] == 0)
    // The last, cut dash: 0.51 long, ending at 3 o'clock.
    let last = arcs.arcs[18].angles
    #expect(last.last! == 2 * .pi)
    #expect(abs((last.last! - last[0]) * 23 - (2 * .pi * 23 - 144)) < 1e-9)
    #expect(arcs.segmentCount == 19)
  }

  /// Zero-length dashes are dots (an arc of `dotFraction` of the line width about them) with round caps and
  /// nothing with butt caps; long dashes are cut into pieces of at most the sweep asked for.
  @Test func dotsAndPieces() throws {
    var s = LoaderStyle.seed
    s.dash = try DashPattern([0, 6, 30, 6])
    for cap in LineCap.allCases {
      s.lineCap = cap
      for sweep in [Double.pi / 2, .pi / 4, 0.1] {
        let arcs = LoaderExport.DashArcs(style: s, maximumSweep: sweep)
        let ring = DashedRing(style: s)
        let dots = ring.dashes.filter { $0.sweep == 0 }.count
        #expect(dots > 0)
        #expect(arcs.arcs.count == ring.dashes.count - (cap == .butt ? dots : 0))
        for arc in arcs.arcs {
          let pieces = zip(arc.angles, arc.angles.dropFirst()).map { $1 - $0 }
          #expect(pieces.allSatisfy { $0 > 0 && $0 <= sweep + 1e-12 })
          let length = (arc.angles.last! - arc.angles[0]) * arcs.radius
          if length < 1 { #expect(abs(length - LoaderExport.dotFraction * 4) < 1e-9) }
        }
      }
    }
  }

  /// The Bézier handles trace the circle: every point of each cubic lies within the stated
  /// error of the centreline, for pieces up to 45 degrees at the largest ring.
  @Test func bezierPiecesStayOnTheCircle() {
    var s = LoaderStyle.seed
    s.frameSize = LoaderStyle.maximumFrameSize
    s.dash = .solid
    let arcs = LoaderExport.DashArcs(style: s, maximumSweep: .pi / 4)
    #expect(arcs.segmentCount == 8)
    for arc in arcs.arcs {
      for (a0, a1) in zip(arc.angles, arc.angles.dropFirst()) {
        let p0 = arcs.point(at: a0)
        let p3 = arcs.point(at: a1)
        let h = arcs.bezierHandles(from: a0, to: a1)
        let p1 = (p0.x + h.out.x, p0.y + h.out.y)
        let p2 = (p3.x + h.in.x, p3.y + h.in.y)
        for k in 0...20 {
          let t = Double(k) / 20
          let u = 1 - t
          let x = u * u * u * p0.x + 3 * u * u * t * p1.0 + 3 * u * t * t * p2.0 + t * t * t * p3.x
          let y = u * u * u * p0.y + 3 * u * u * t * p1.1 + 3 * u * t * t * p2.1 + t * t * t * p3.y
          #expect(abs((x * x + y * y).squareRoot() - arcs.radius) <= 4.3e-6 * arcs.radius)
        }
      }
    }
  }
}

@Suite struct LoaderExportFileTests {
  /// Whether `text` is well-formed XML.
  func isWellFormedXML(_ text: String) -> Bool {
    XMLParser(data: Data(text.utf8)).parse()
  }

  func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  @Test(arguments: LoaderExport.SVGAnimation.allCases)
  func theSeedsSVG(animation: LoaderExport.SVGAnimation) throws {
    let svg = try LoaderExport.svg(animation: animation)
    #expect(isWellFormedXML(svg))
    #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg""#))
    #expect(svg.contains(#"width="390" height="120" viewBox="0 0 390 120""#))
    #expect(svg.contains(##"<rect width="390" height="120" fill="#FFFFFF"/>"##))
    #expect(count("<use ", in: svg) == 5)
    // 19 dashes, each its own subpath of arcs: the geometry is written once.
    #expect(count("<path ", in: svg) == 1)
    #expect(
      count("M", in: String(svg.components(separatedBy: #" d=""#)[1].prefix { $0 != "\"" })) == 19)
    #expect(!svg.contains("dasharray"))
    for (i, x) in [53, 131, 209, 287, 365].enumerated() {
      #expect(svg.contains(#"<g transform="translate(\#(x) 60)">"#))
      #expect(svg.contains(LoaderStyle.seed.color(ofRing: i).description))
    }
    switch animation {
    case .smil:
      #expect(count("<animateTransform ", in: svg) == 5)
      #expect(svg.contains(#"values="150;360;360;510" keyTimes="0;0.28;0.8;1""#))
      #expect(svg.contains(#"dur="1.25s" repeatCount="indefinite""#))
      #expect(!svg.contains("<style>"))
    case .css:
      #expect(count("@keyframes", in: svg) == 5)
      #expect(svg.contains("{animation:1.25s linear infinite}"))
      #expect(
        svg.contains(
          "{0%{transform:rotate(150deg)}28%{transform:rotate(360deg)}"
            + "80%{transform:rotate(360deg)}100%{transform:rotate(510deg)}}"))
      #expect(!svg.contains("animateTransform"))
    }
    #expect(svg.utf8.count < 4096)
    #expect(try LoaderExport.svg(animation: animation) == svg)
  }

  @Test func svgOptions() throws {
    let clear = try LoaderExport.svg(background: nil)
    #expect(!clear.contains("<rect"))
    var s = LoaderStyle.seed
    s.colors[0].a = 0x80
    s.lineCap = .butt
    let translucent = try LoaderExport.svg(style: s, width: 390.5, height: 99.25)
    #expect(isWellFormedXML(translucent))
    #expect(translucent.contains(##"stroke="#FF3B30" stroke-opacity="0.502""##))
    #expect(translucent.contains(#"stroke-linecap="butt""#))
    #expect(translucent.contains(#"viewBox="0 0 390.5 99.25""#))
    // Different loaders get different ids, so both can sit inline in one page.
    let id = { (svg: String) in svg.components(separatedBy: #"<path id=""#)[1].prefix(12) }
    #expect(id(translucent) != id(clear))
    #expect(id(try LoaderExport.svg(background: nil)) == id(clear))
  }

  /// The Lottie file of the seed: parses, 60 fps and 75 frames, one layer a ring and the
  /// background, keyframes at SPEC's frames, and `ty` first in every shape (rlottie skips
  /// the keys before it).
  @Test func theSeedsLottie() throws {
    let data = try LoaderExport.lottie()
    let text = String(decoding: data, as: UTF8.self)
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(root["fr"] as? Double == 60 && root["op"] as? Double == 75)
    #expect(root["w"] as? Int == 390 && root["h"] as? Int == 120)
    let layers = try #require(root["layers"] as? [[String: Any]])
    #expect(
      layers.map { $0["nm"] as? String } == [
        "ring 4", "ring 3", "ring 2", "ring 1", "ring 0", "background",
      ])
    let ks = try #require(layers[0]["ks"] as? [String: Any])
    let r = try #require((ks["r"] as? [String: Any])?["k"] as? [[String: Any]])
    #expect(r.map { $0["t"] as? Double } == [0, 21, 60, 75])
    #expect(r.map { ($0["s"] as? [Double])?.first } == [150, 360, 360, 510])
    #expect(r.map { $0["h"] as? Int } == [nil, 1, nil, nil])
    #expect((ks["p"] as? [String: Any])?["k"] as? [Double] == [365, 60, 0])
    #expect(count(#""ty":"sh""#, in: text) == 5 * 19)
    for type in ["gr", "sh", "st", "tr", "rc", "fl"] {
      #expect(count(#"{"ty":"\#(type)""#, in: text) == count(#""ty":"\#(type)""#, in: text))
    }
    #expect(!text.contains("-0,") && !text.contains("-0]"))
    #expect(data.count < 20_000)
    #expect(try LoaderExport.lottie() == data)
  }

  @Test func lottieFrameRateFitsThePeriod() {
    for stagger in [0.001, 0.013, 0.25, 0.26, 3] {
      var s = LoaderStyle.seed
      s.stagger = stagger
      let frames = LoaderExport.lottieFrameCount(of: s)
      let rate = LoaderExport.lottieFrameRate(of: s)
      #expect(frames >= 1)
      #expect(abs(Double(frames) / rate - s.period) < 1e-12)
      #expect(frames == 1 || abs(rate - 60) <= 60 / Double(frames))
    }
  }

  @Test func refusals() throws {
    var bad = LoaderStyle.seed
    bad.ringCount = 0
    #expect(throws: LoaderExport.Error.self) { try LoaderExport.svg(style: bad) }
    #expect(throws: LoaderExport.Error.self) { try LoaderExport.lottie(style: bad) }
    for (w, h) in [(0.0, 120.0), (390, -1), (390, .infinity), (100_001, 10)] {
      #expect(throws: LoaderExport.Error.invalidSize(width: w, height: h)) {
        try LoaderExport.svg(width: w, height: h)
      }
      #expect(throws: LoaderExport.Error.invalidSize(width: w, height: h)) {
        try LoaderExport.lottie(width: w, height: h)
      }
    }
    for (w, h) in [(Double.nan, 120.0), (390, .nan)] {
      #expect(throws: LoaderExport.Error.self) { try LoaderExport.svg(width: w, height: h) }
      #expect(throws: LoaderExport.Error.self) { try LoaderExport.lottie(width: w, height: h) }
    }
    var quarter = LoaderStyle.seed
    quarter.turnDegrees = 90
    #expect(throws: LoaderExport.Error.turnNotWhole(degrees: 90)) {
      try LoaderExport.svg(style: quarter)
    }
    #expect(
      LoaderExport.Error.turnNotWhole(degrees: 90).description
        == "turnDegrees 90.0 is not a multiple of 360: one period would not loop without a seam")
    // A solid ring looks the same at every angle: any turn loops.
    quarter.dash = .solid
    _ = try LoaderExport.svg(style: quarter)
    _ = try LoaderExport.lottie(style: quarter)
  }

  /// The largest styles stay bounded: a thousand rings of 3,600 dashes make an SVG of under a
  /// megabyte (the geometry once), and a Lottie file is refused past its segment cap.
  @Test func hugeStyles() throws {
    var s = LoaderStyle.seed
    s.ringCount = LoaderStyle.maximumRingCount
    s.dash = try DashPattern([0.02, 0.02])
    let svg = try LoaderExport.svg(style: s, width: 60_000, height: 100)
    #expect(svg.utf8.count < 1_000_000)
    let segments = LoaderExport.DashArcs(style: s, maximumSweep: .pi / 4).segmentCount * 1024
    #expect(throws: LoaderExport.Error.tooManySegments(segments)) {
      try LoaderExport.lottie(style: s)
    }
  }

  @Test func numbers() {
    let cases: [(Double, Int, String)] = [
      (23, 3, "23"), (22.9134, 3, "22.913"), (-0.0001, 3, "0"), (-4.5, 3, "-4.5"),
      (0.001, 3, "0.001"), (28.000_000_1, 4, "28"), (1e11 + 0.25, 3, "100000000000.25"),
      (0.123_456_7, 6, "0.123457"),
    ]
    for (x, decimals, text) in cases {
      #expect(LoaderExport.number(x, decimals: decimals) == text)
    }
  }
}
