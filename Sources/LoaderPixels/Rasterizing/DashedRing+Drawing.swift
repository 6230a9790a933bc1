import LoaderCore

extension DashedRing {
  /// The check every backend makes before drawing a shape: false when there is nothing to draw
  /// (no dashes, or a zero radius or width); an error naming `backend` when a length is not
  /// finite or negative, or the ring reaches further than `limit` pixels from its centre (each
  /// backend's integer types and memory set its own limit).
  package func isDrawable(by backend: String, limit: Double) throws(RasterError) -> Bool {
    guard radius.isFinite, halfWidth.isFinite else {
      throw RasterError(
        "\(backend) backend",
        message: "ring radius \(radius) px or half width \(halfWidth) px is not finite",
        reason: .tooLarge)
    }
    guard radius >= 0, halfWidth >= 0 else {
      throw RasterError(
        "\(backend) backend",
        message: "ring radius \(radius) px or half width \(halfWidth) px is negative",
        reason: .outOfRange)
    }
    let outer = radius + halfWidth
    guard outer <= limit else {
      throw RasterError(
        "\(backend) backend",
        message:
          "ring radius \(outer) px exceeds the \(backend) backend's limit of \(Int(limit)) px",
        reason: .tooLarge)
    }
    return isDrawable
  }
}

extension UnsafeBufferPointer<DashedRing> {
  /// Whether any of the shapes has ink to draw, each first checked against `backend`'s
  /// `limit` (`DashedRing.isDrawable(by:limit:)`): the check every draw makes first.
  package func anyDrawable(by backend: String, limit: Double) throws(RasterError) -> Bool {
    var any = false
    for shape in self { any = try shape.isDrawable(by: backend, limit: limit) || any }
    return any
  }
}
