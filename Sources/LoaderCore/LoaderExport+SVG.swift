import Foundation

extension LoaderExport {
  /// The SVG text of a validated style and container.
  ///
  /// ```
  /// <svg ... viewBox="0 0 W H">
  /// <style>  (CSS only) one @keyframes per ring, percentages of the period, linear between
  /// <defs><path id="P" d="M .. A .. M .. A .." fill="none" stroke-width=.. stroke-linecap=../></defs>
  /// <rect .. fill="background"/>
  /// <g transform="translate(cx cy)"><g class="P P-i"><use href="#P" stroke="colour"/></g></g>   CSS, per ring
  /// <g transform="translate(cx cy)"><g><use .../><animateTransform type="rotate" values=..
  ///    keyTimes=.. calcMode="linear" dur=.. repeatCount="indefinite"/></g></g>              SMIL, per ring
  /// ```
  /// The dash geometry is written once and every ring references it. Each ring is drawn about
  /// its own origin and the inner group turns it there, so the rotation needs no
  /// `transform-origin`. `P` is `ldr-` and a hash of the drawing, so two different loaders
  /// inlined in one HTML page do not share ids or class names, and two copies of the same one
  /// share identical definitions.
  struct SVGDocument {
    var style: LoaderStyle
    var width: Double
    var height: Double
    var background: RGBAColor?
    var animation: SVGAnimation

    /// SVG's arc command takes up to a half turn; a quarter keeps every arc's flags 0.
    static let maximumSweep = Double.pi / 2

    var text: String {
      let arcs = DashArcs(style: style, maximumSweep: Self.maximumSweep)
      let path = pathData(arcs)
      let frames = RowLayout.frames(width: width, height: height, style: style)
      let motions = (0..<style.ringCount).map { RingMotion(ring: $0, style: style) }
      let period = style.period
      let duration = number(period, decimals: 6) + "s"
      // Written with a placeholder, then named by the hash of everything drawn.
      let id = "ldr-@"

      var lines: [String] = []
      lines.append(
        #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink""#
          + #" width="\#(number(width))" height="\#(number(height))""#
          + #" viewBox="0 0 \#(number(width)) \#(number(height))">"#)
      if animation == .css {
        lines.append("<style>")
        lines.append(".\(id){animation:\(duration) linear infinite}")
        for (i, m) in motions.enumerated() {
          let steps = zip(m.times, m.angles).map { t, a in
            "\(number(t / period * 100, decimals: 4))%{transform:rotate(\(number(a))deg)}"
          }
          lines.append(".\(id)-\(i){animation-name:\(id)-\(i)}")
          lines.append("@keyframes \(id)-\(i){\(steps.joined())}")
        }
        lines.append("</style>")
      }
      lines.append(
        #"<defs><path id="\#(id)" d="\#(path)" fill="none""#
          + #" stroke-width="\#(number(style.lineWidth))""#
          + #" stroke-linecap="\#(style.lineCap.rawValue)"/></defs>"#)
      if let background {
        lines.append(
          #"<rect width="\#(number(width))" height="\#(number(height))""#
            + #" fill="\#(background.svgColor)"\#(background.svgOpacity("fill"))/>"#)
      }
      for (i, frame) in frames.enumerated() {
        let color = style.color(ofRing: i)
        let use =
          ##"<use xlink:href="#\##(id)" stroke="\##(color.svgColor)""##
          + ##"\##(color.svgOpacity("stroke"))/>"##
        let m = motions[i]
        let inner: String
        switch animation {
        case .css:
          inner = #"<g class="\#(id) \#(id)-\#(i)">\#(use)</g>"#
        case .smil:
          let values = m.angles.map { number($0) }.joined(separator: ";")
          let times = m.times.map { number($0 / period, decimals: 6) }.joined(separator: ";")
          inner =
            #"<g>\#(use)<animateTransform attributeName="transform" type="rotate""#
            + #" values="\#(values)" keyTimes="\#(times)" calcMode="linear" dur="\#(duration)""#
            + #" repeatCount="indefinite"/></g>"#
        }
        lines.append(
          #"<g transform="translate(\#(number(frame.midX)) \#(number(frame.midY)))">\#(inner)</g>"#
        )
      }
      lines.append("</svg>")
      let text = lines.joined(separator: "\n") + "\n"
      return text.replacingOccurrences(of: id, with: "ldr-" + Self.hash(text))
    }

    /// `M x y A r r 0 0 1 x y ...` per arc: a separate subpath each, so nothing joins them.
    private func pathData(_ arcs: DashArcs) -> String {
      let r = number(arcs.radius)
      return arcs.arcs.map { arc in
        let start = arcs.point(at: arc.angles[0])
        var s = "M\(number(start.x)) \(number(start.y))"
        for angle in arc.angles.dropFirst() {
          let p = arcs.point(at: angle)
          s += "A\(r) \(r) 0 0 1 \(number(p.x)) \(number(p.y))"
        }
        return s
      }.joined()
    }

    /// FNV-1a, 32 bits, as 8 hex digits: a stable name, not a checksum.
    static func hash(_ s: String) -> String {
      var h: UInt32 = 2_166_136_261
      for byte in s.utf8 {
        h ^= UInt32(byte)
        h = h &* 16_777_619
      }
      let digits = String(h, radix: 16)
      return String(repeating: "0", count: 8 - digits.count) + digits
    }
  }
}

extension RGBAColor {
  /// `#RRGGBB`.
  fileprivate var svgColor: String { description }

  /// ` fill-opacity="0.5"` and the like, or nothing when opaque.
  fileprivate func svgOpacity(_ property: String) -> String {
    a == 255
      ? "" : #" \#(property)-opacity="\#(LoaderExport.number(Double(a) / 255, decimals: 4))""#
  }
}
