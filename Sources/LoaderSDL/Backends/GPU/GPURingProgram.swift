internal import CSwiftLoaderGL

/// The `gpu` backend's shader program: one quad per ring instance, the ring's coverage
/// computed for every pixel in the fragment shader from SPEC's geometry, as
/// `DashedRing.DistanceTable` computes it on the CPU.
///
/// Per instance (attributes with divisor 1):
/// - `a_place`: the centre in the target's pixels, the centreline radius and the half width;
/// - `a_dashes`: the shape's first entry in the dash table, its dash count, and flags (1: round
///   caps, 2: one dash all round, no ends);
/// - `a_color`: straight RGBA;
/// - `a_angle`: the turn, radians clockwise (the one value uploaded every frame).
///
/// The dash table is a texture of `(start, end)` angle pairs, each shape's dashes sorted and
/// merged where they touch (`DistanceTable.dashes`): a pixel finds its dash by binary search
/// on the starts. Its coverage is `DashedRing.coverage(atDistance:halfWidth:)` of its signed
/// distance, or for a stroke under 2 pixels wide the mean of that rule over the pixel's four
/// quarters: the rule every backend follows, so the picture matches theirs and Cairo's.
package struct GPURingProgram {
  /// Texels per row of the dash table.
  static let tableWidth = 1024

  /// Attribute locations.
  enum Attribute: UInt32, CaseIterable {
    case corner = 0
    case place = 1
    case dashes = 2
    case color = 3
    case angle = 4

    var name: String {
      switch self {
      case .corner: "a_corner"
      case .place: "a_place"
      case .dashes: "a_dashes"
      case .color: "a_color"
      case .angle: "a_angle"
      }
    }
  }

  let program: UInt32
  /// `u_scale` and `u_offset`: target pixels to clip space.
  let scaleLocation: Int32
  let offsetLocation: Int32
  let tableLocation: Int32
  /// `u_swapRedBlue`: SDL's GLES2 renderer keeps ARGB8888 and RGB888 targets in GL's RGBA
  /// order and swaps red and blue in every colour it draws there; so does the program.
  let swapLocation: Int32

  /// The GLSL version lines for a context: `#version 300 es` (with highp precision) on OpenGL
  /// ES, `#version 330` on desktop OpenGL; the context runs the backend
  /// (`GLVersion.runsTheBackend`).
  static func header(openGLES: Bool) -> String {
    openGLES
      ? "#version 300 es\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n"
      : "#version 330\n"
  }

  /// The two stages' whole sources, as the driver compiles them (CI checks them with Khronos's
  /// reference compiler: `Tools/check-shaders.sh`).
  package static func sources(openGLES: Bool) -> (vertex: String, fragment: String) {
    let header = header(openGLES: openGLES)
    return (header + vertexSource, header + fragmentSource)
  }

  static let vertexSource = """
    in vec2 a_corner;
    in vec4 a_place;
    in vec3 a_dashes;
    in vec4 a_color;
    in float a_angle;
    uniform vec2 u_scale;
    uniform vec2 u_offset;
    out vec2 v_local;
    flat out vec4 v_shape;
    flat out int v_flags;
    flat out vec4 v_color;
    void main() {
      // The ring's square, a pixel of margin around its ink.
      vec2 offset = a_corner * (a_place.z + a_place.w + 1.0);
      float c = cos(a_angle);
      float s = sin(a_angle);
      // Turned back into the unturned ring's frame (a turn is clockwise on screen, y down).
      v_local = vec2(offset.x * c + offset.y * s, offset.y * c - offset.x * s);
      v_shape = vec4(a_place.zw, a_dashes.xy);
      v_flags = int(a_dashes.z);
      v_color = a_color;
      gl_Position = vec4((a_place.xy + offset) * u_scale + u_offset, 0.0, 1.0);
    }
    """

  static let fragmentSource = """
    uniform sampler2D u_table;
    uniform int u_swapRedBlue;
    in vec2 v_local;
    flat in vec4 v_shape;
    flat in int v_flags;
    flat in vec4 v_color;
    layout(location = 0) out vec4 o_color;
    const float PI = 3.14159265358979;
    const float TAU = 6.28318530717959;
    const int ROW = \(tableWidth);

    vec2 dashAt(int i) { return texelFetch(u_table, ivec2(i % ROW, i / ROW), 0).xy; }
    vec2 direction(float a) { return vec2(cos(a), sin(a)); }
    float crossOf(vec2 a, vec2 b) { return a.x * b.y - a.y * b.x; }

    // Distance from p outside a dash to its end at angle a: the round cap there, or the flat
    // end (the radial segment R - h ... R + h).
    float endDistance(vec2 p, float a, float R, float h, bool round) {
      vec2 d = direction(a);
      if (round) return length(p - R * d) - h;
      float off = max(0.0, abs(dot(p, d) - R) - h);
      float t = crossOf(d, p);
      return sqrt(off * off + t * t);
    }

    // The dash at angle theta (0 ..< TAU) of this ring's: k the last starting at or before it
    // (-1 for none) and dash its (start, end); true when theta lies in it, theta then taken
    // below 0 for the part of dash 0 that wraps past TAU.
    bool findDash(inout float theta, out int k, out vec2 dash) {
      int first = int(v_shape.z);
      int lo = 0;
      int hi = int(v_shape.w);
      while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (dashAt(first + mid).x <= theta) lo = mid + 1; else hi = mid;
      }
      k = lo - 1;
      dash = dashAt(first + max(k, 0));
      if (k >= 0 && theta <= dash.y) return true;
      vec2 d0 = dashAt(first);
      if (theta - TAU < d0.x) return false;
      k = 0;
      dash = d0;
      theta -= TAU;
      return true;
    }

    // Signed distance from p (unturned, relative to the centre) to the ink: negative inside.
    float signedDistance(vec2 p) {
      float R = v_shape.x;
      float h = v_shape.y;
      int first = int(v_shape.z);
      int n = int(v_shape.w);
      bool round = (v_flags & 1) != 0;
      float rho = length(p);
      float body = abs(rho - R) - h;
      if ((v_flags & 2) != 0) return body;
      float theta = rho > 0.0 ? atan(p.y, p.x) : 0.0;
      if (theta < 0.0) theta += TAU;
      int k;
      vec2 dash;
      if (findDash(theta, k, dash)) {
        if (round) return body;
        float t = 1e30;
        if (theta - dash.x < 0.5 * PI) t = crossOf(direction(dash.x), p);
        if (dash.y - theta < 0.5 * PI) t = min(t, crossOf(p, direction(dash.y)));
        return max(body, -t);
      }
      int before = k >= 0 ? k : n - 1;
      int after = k + 1 < n ? k + 1 : 0;
      return min(
        endDistance(p, dashAt(first + before).y, R, h, round),
        endDistance(p, dashAt(first + after).x, R, h, round));
    }

    float cover(float d, float h) { return clamp(min(0.5 - d, 2.0 * h), 0.0, 1.0); }

    // A quarter's coverage from the ring's sides alone.
    float coverBody(vec2 q, float R, float h) {
      return cover(2.0 * (abs(length(q) - R) - h), 2.0 * h);
    }

    // Whether every quarter of the pixel centred at p lies within one dash's angular range at
    // least 0.62 px (a quarter's 0.354 and a quarter pixel) from its ends, or the ring is one
    // dash all round: then each quarter's distance is its distance from the ring's sides (a
    // flat end's term cannot change a quarter's coverage there).
    bool shortcut(vec2 p) {
      if ((v_flags & 2) != 0) return true;
      float rho = length(p);
      if (rho <= 1.0) return false;
      float theta = atan(p.y, p.x);
      if (theta < 0.0) theta += TAU;
      int k;
      vec2 dash;
      if (!findDash(theta, k, dash)) return false;
      float margin = 0.62 / rho;
      return theta - dash.x >= margin && dash.y - theta >= margin;
    }

    void main() {
      float R = v_shape.x;
      float h = v_shape.y;
      // Farther than a pixel from the ring's band: no ink, whatever the dashes.
      if (abs(length(v_local) - R) - h > 1.0) discard;
      float c;
      if (h >= 1.0) {
        c = cover(signedDistance(v_local), h);
      } else if (shortcut(v_local)) {
        // Every quarter within one dash, away from its ends: their distances from the ring's
        // sides alone, no arctangent or dash search (`DistanceTable.coverage(x:y:)`'s case).
        c = 0.25 * (
          coverBody(v_local + vec2(-0.25, -0.25), R, h) + coverBody(v_local + vec2(0.25, -0.25), R, h)
          + coverBody(v_local + vec2(-0.25, 0.25), R, h) + coverBody(v_local + vec2(0.25, 0.25), R, h));
      } else {
        // Quarters of the pixel, each a half-pixel box: distances in half-pixel units.
        c = 0.25 * (
          cover(2.0 * signedDistance(v_local + vec2(-0.25, -0.25)), 2.0 * h)
          + cover(2.0 * signedDistance(v_local + vec2(0.25, -0.25)), 2.0 * h)
          + cover(2.0 * signedDistance(v_local + vec2(-0.25, 0.25)), 2.0 * h)
          + cover(2.0 * signedDistance(v_local + vec2(0.25, 0.25)), 2.0 * h));
      }
      if (c <= 0.0) discard;
      vec3 rgb = u_swapRedBlue != 0 ? v_color.bgr : v_color.rgb;
      o_color = vec4(rgb, v_color.a * c);
    }
    """

  /// Compiles and links the program for a context that runs the backend, `fragmentSuffix`
  /// appended to the fragment shader's source (tests: a line the compiler rejects).
  /// - Throws: `SDLError` naming the stage that failed, with the driver's log.
  init(_ gl: GLFunctions, fragmentSuffix: String = "") throws(SDLError) {
    let source = Self.sources(openGLES: gl.version.openGLES)
    let vs = try Self.compile(gl, GLenum(GL_VERTEX_SHADER), source.vertex, stage: "vertex")
    defer { gl.deleteShader(vs) }
    let fs = try Self.compile(
      gl, GLenum(GL_FRAGMENT_SHADER), source.fragment + fragmentSuffix, stage: "fragment")
    defer { gl.deleteShader(fs) }
    let p = gl.createProgram()
    gl.attachShader(p, vs)
    gl.attachShader(p, fs)
    for a in Attribute.allCases { gl.bindAttribLocation(p, a.rawValue, a.name) }
    gl.linkProgram(p)
    var ok: Int32 = 0
    gl.getProgramiv(p, GLenum(GL_LINK_STATUS), &ok)
    guard ok != 0 else {
      let log = Self.log { gl.getProgramInfoLog(p, $0, nil, $1) }
      gl.deleteProgram(p)
      throw SDLError("gpu backend", message: "the gpu shaders did not link: \(log)")
    }
    program = p
    scaleLocation = gl.getUniformLocation(p, "u_scale")
    offsetLocation = gl.getUniformLocation(p, "u_offset")
    tableLocation = gl.getUniformLocation(p, "u_table")
    swapLocation = gl.getUniformLocation(p, "u_swapRedBlue")
  }

  private static func compile(_ gl: GLFunctions, _ kind: GLenum, _ source: String, stage: String)
    throws(SDLError) -> UInt32
  {
    let shader = gl.createShader(kind)
    source.withCString { text in
      var pointer: UnsafePointer<CChar>? = text
      gl.shaderSource(shader, 1, &pointer, nil)
    }
    gl.compileShader(shader)
    var ok: Int32 = 0
    gl.getShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
    guard ok != 0 else {
      let log = Self.log { gl.getShaderInfoLog(shader, $0, nil, $1) }
      gl.deleteShader(shader)
      throw SDLError("gpu backend", message: "the gpu \(stage) shader did not compile: \(log)")
    }
    return shader
  }

  /// The driver's log, its lines joined by " | " (the first line says the first error).
  private static func log(_ read: (Int32, UnsafeMutablePointer<CChar>) -> Void) -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    buffer.withUnsafeMutableBufferPointer { read(Int32($0.count - 1), $0.baseAddress!) }
    let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    let lines = text.split(separator: "\n").map { $0.drop(while: \.isWhitespace) }.filter {
      !$0.isEmpty
    }
    return lines.isEmpty ? "(the driver gave no log)" : lines.joined(separator: " | ")
  }
}
