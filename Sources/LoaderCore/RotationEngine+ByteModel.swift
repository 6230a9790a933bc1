extension RotationEngine {
  /// The least memory traffic of one `step()` followed by one `presentationAngles(at:into:)`
  /// when every loader has one style and is animating: the bytes that no implementation of
  /// this layout can avoid reading or writing, counted as a copy's traffic is (each byte read
  /// plus each byte written). The bench divides it by a measured copy bandwidth for its
  /// `limit/bandwidth`; this is the one place that knows what the step touches.
  ///
  /// From the sizes of the stored types (`MemoryLayout`), per step:
  /// ```
  /// every ring     perRing    = read relativeStart + write the angle          (Float + Float)
  ///                             + wrappedBase, inverseDuration, ringDegrees   (3 Float, only
  ///                               when turns are not all 360 degrees of one duration)
  /// every trigger  perTrigger = read its WheelEntry + write it to its next bucket
  ///                             + write one Float to relativeStart
  ///                             + read its LoaderRun and RingHistory          (only off the
  ///                               common path: overlapping or other than whole turns)
  ///                             + write one Float to wrappedBase              (turns != 360)
  /// rebase         perRing    = read + write relativeStart, once every rebaseInterval
  /// triggers per step = loaders * dt / stagger   (each animating loader fires every stagger)
  /// ```
  /// Left out, all small against these: the bucket's count and capacity, the overlap pool,
  /// the second read of a bucket's entries on several threads, and the whole cache line a
  /// trigger's `Float` write dirties (a floor counts the bytes the step needs).
  package struct ByteModel: Sendable, Equatable {
    /// Bytes every ring reads and writes in the presentation pass.
    package var perRing: Int
    /// Bytes each trigger reads and writes in the step.
    package var perTrigger: Int
    /// Bytes every ring reads and writes when the epoch moves.
    package var perRingPerRebase: Int
    /// Steps between two rebases.
    package var stepsPerRebase: Double
    /// Triggers each loader fires per step, on average.
    package var triggersPerLoaderPerStep: Double
    package var ringsPerLoader: Int

    /// Bytes one step plus one presentation pass must move, on average, for `loaders` loaders.
    package func bytesPerStep(loaders: Int) -> Double {
      let rings = Double(loaders * ringsPerLoader)
      return rings * (Double(perRing) + Double(perRingPerRebase) / stepsPerRebase)
        + Double(loaders) * triggersPerLoaderPerStep * Double(perTrigger)
    }

    /// `bytesPerStep(loaders:)` per ring (independent of the count).
    package var bytesPerRing: Double { bytesPerStep(loaders: 1) / Double(ringsPerLoader) }

    /// The bytes one step ranges over: the per-ring arrays the pass streams and the entries
    /// of the bucket it fires. A copy over a buffer of this size (source and destination
    /// together) runs from the same level of the memory hierarchy as the step.
    package func workingSetBytes(loaders: Int) -> Int {
      loaders * ringsPerLoader * perRing
        + Int((Double(loaders) * triggersPerLoaderPerStep * Double(perTrigger)).rounded(.up))
    }
  }

  /// The byte model for loaders of `style` stepped every `dt` seconds.
  package static func byteModel(style: LoaderStyle, dt: Double) -> ByteModel {
    let float = MemoryLayout<Float>.size
    let uniform = style.turnDegrees == 360
    // The common trigger needs nothing but its entry (see `startRun`'s `simple` tag).
    let simple = uniform && style.stagger * Double(style.ringCount) >= style.turnDuration + 2 * dt
    var perTrigger = 2 * MemoryLayout<WheelEntry>.stride + float
    if !simple {
      perTrigger += MemoryLayout<LoaderRun>.stride + MemoryLayout<RingHistory>.stride
    }
    if !uniform { perTrigger += float }
    return ByteModel(
      perRing: uniform ? 2 * float : 5 * float, perTrigger: perTrigger,
      perRingPerRebase: 2 * float, stepsPerRebase: rebaseInterval / dt,
      triggersPerLoaderPerStep: dt / style.stagger, ringsPerLoader: style.ringCount)
  }
}
