import CSwiftLoaderSDL2
import LoaderCore
import LoaderPixels

/// The few rings the `gpu` backend draws offscreen before a renderer's default trusts it, and
/// the `spans` kernel's pixels of the same rings to hold them to: the seed's ring, a dashed
/// stroke under a pixel wide (the shader's quarter-pixel path), butt caps, and a half
/// transparent colour, each at an angle that puts dash ends across pixels.
struct GPUProbe {
  /// The least PSNR, dB, of the probe's pixels against the kernel's: the quality bar every
  /// backend meets against Cairo.
  static let minimumPSNR = 30.0

  let width = 168
  let height = 56
  let shapes: [DashedRing]
  let rings: [RingInstance]

  init() {
    let seed = DashedRing(style: .seed)
    var thin = seed
    thin.halfWidth = 0.35
    var butt = seed
    butt.cap = .butt
    shapes = [seed, thin, butt]
    rings = [
      RingInstance(
        centerX: 28, centerY: 28, angle: 37.5, color: RGBAColor(r: 255, g: 59, b: 48, a: 255)),
      RingInstance(
        centerX: 84, centerY: 28, angle: 200.25, color: RGBAColor(r: 52, g: 199, b: 89, a: 255),
        shape: 1),
      RingInstance(
        centerX: 140, centerY: 28, angle: 301, color: RGBAColor(r: 0, g: 122, b: 255, a: 128),
        shape: 2),
    ]
  }

  /// Why `pixels` (premultiplied RGBA, rows top first, `width` x `height`) are not the
  /// kernel's picture of the probe, or nil when they are: their PSNR over every pixel either
  /// image inks, all four channels, against `minimumPSNR`.
  func mismatch(_ pixels: [UInt8]) throws(SDLError) -> String? {
    let reference = try self.reference()
    var sum = 0
    var inked = 0
    // The reference's bytes are B, G, R, A.
    let order = [2, 1, 0, 3]
    for i in stride(from: 0, to: pixels.count, by: 4)
    where pixels[i + 3] != 0 || reference[i + 3] != 0 {
      for c in 0..<4 {
        let d = Int(pixels[i + c]) - Int(reference[i + order[c]])
        sum += d * d
      }
      inked += 1
    }
    guard inked > 0 else { return "the gpu probe drew nothing, and neither did spans" }
    let meanSquare = Double(sum) / Double(4 * inked)
    let db = meanSquare == 0 ? Double.infinity : 10 * SDL_log10(255 * 255 / meanSquare)
    guard db < Self.minimumPSNR else { return nil }
    let shown = (db * 10).rounded() / 10
    return "the gpu probe's pixels are \(shown) dB from spans' (\(Self.minimumPSNR) needed)"
  }

  /// The kernel's pixels of the probe over transparent black: premultiplied BGRA.
  private func reference() throws(SDLError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    let outcome = bytes.withUnsafeMutableBytes { (raw) -> Result<Void, SDLError> in
      let buffer = PixelBuffer(
        base: raw.baseAddress, width: width, height: height, bytesPerRow: width * 4,
        format: .bgraPremultiplied)
      for (i, shape) in shapes.enumerated() {
        let own = rings.filter { $0.shape == Int32(i) }.map {
          RingInstance(centerX: $0.centerX, centerY: $0.centerY, angle: $0.angle, color: $0.color)
        }
        do throws(RasterError) {
          try PixelBufferDrawer(budgetBytes: 1 << 20).draw(
            own, shape: shape, into: buffer, threads: 1)
        } catch {
          return .failure(error)
        }
      }
      return .success(())
    }
    try outcome.get()
    return bytes
  }
}
