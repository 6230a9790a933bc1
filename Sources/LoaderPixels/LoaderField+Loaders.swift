import LoaderCore

/// The loaders: adding, removing, and turning them on and off.
extension LoaderField {
  /// Adds a loader at the end of the layout (and on top of the stack), appearing at `time`
  /// like SwiftUI's `LoaderView(isAnimating:)` (animating from then when `isAnimating`). A
  /// later time is kept as it is (the loader rests until then); an earlier one than the
  /// field's present (the last step drawn) lands at the present. In `.free` layout its frame is
  /// empty until `setFrame(_:of:)` (or add it with `addLoader(isAnimating:at:frame:)`).
  /// - Parameters:
  ///   - isAnimating: whether it animates from `time` on, as SwiftUI's `isAnimating`.
  ///   - time: caller seconds the loader appears at.
  /// - Returns: the new loader's handle, for every call about it.
  /// - Throws: `LoaderField.Error` when `time` is not finite or maps past the last
  ///   representable loader time (about 140,000 years), or (reason `.tooLarge`) when the
  ///   field already holds `maximumCount` loaders.
  @discardableResult
  public func addLoader(isAnimating: Bool, at time: Double) throws(Error) -> LoaderID {
    guard count < maximumCount else {
      throw .tooManyLoaders(adding: 1, to: count, limit: maximumCount)
    }
    let tau = try loaderTime(at: time)
    let at = max(tau, engine.time)
    let id: LoaderID
    let firstRing: Int
    do {
      id = try engine.addLoader(style: style, isAnimating: isAnimating, at: at)
      firstRing = try engine.firstRing(of: id)
    } catch {
      throw .engine(error)
    }
    loaders.append(id)
    let n = style.ringCount
    if slots.count <= id.slot {
      slots.append(contentsOf: repeatElement(Slot(id: id), count: id.slot + 1 - slots.count))
      ringColorTable.append(
        contentsOf: repeatElement(RGBAColor(hex: 0), count: slots.count * n - ringColorTable.count))
    }
    slots[id.slot] = Slot(
      id: id, firstRing: Int32(firstRing), order: Int32(order.count), isLive: true)
    order.append(Int32(id.slot))
    for r in 0..<n { ringColorTable[id.slot * n + r] = ringColors[r] }
    return id
  }

  /// Adds `n` loaders (see `addLoader(isAnimating:at:)`), storage reserved once. Their
  /// handles are the last `n` of `loaders`.
  ///
  /// Each loader takes the storage `maximumCount` counts. A field larger than its frames
  /// show is slow in every call, not only here (Benchmarks/README.md has the costs): keep a
  /// field to what its frames show.
  /// - Parameters:
  ///   - n: how many, 0...`maximumCount - count` (0 adds none).
  ///   - isAnimating: whether they animate from `time` on.
  ///   - time: caller seconds they appear at.
  /// - Throws: `LoaderField.Error` for a negative `n` (reason `.outOfRange`) or one that
  ///   would take the field past `maximumCount` (`.tooLarge`), before anything is reserved;
  ///   what `addLoader(isAnimating:at:)` throws, before adding any.
  public func addLoaders(_ n: Int, isAnimating: Bool, at time: Double) throws(Error) {
    guard n >= 0 else { throw .invalidLoaderCount(n) }
    let limit = maximumCount
    // `count + n` only once it is known not to overflow.
    guard n <= limit - count else { throw .tooManyLoaders(adding: n, to: count, limit: limit) }
    guard n > 0 else { return }
    engine.reserveCapacity(loaders: count + n, rings: (count + n) * style.ringCount)
    loaders.reserveCapacity(count + n)
    order.reserveCapacity(order.count + n)
    for _ in 0..<n { try addLoader(isAnimating: isAnimating, at: time) }
  }

  /// Removes a loader; the ones after it move up a cell. Its handle goes stale: every later
  /// call given it throws.
  /// - Parameter id: a live loader's handle.
  /// - Throws: `LoaderField.Error` for a handle already removed.
  public func remove(_ id: LoaderID) throws(Error) {
    do { try engine.remove(id) } catch { throw .engine(error) }
    slots[id.slot].isLive = false
    let place = Int(slots[id.slot].order)
    if order.indices.contains(place) {
      order[place] = -1
      orderHoles += 1
      while let last = order.last, last < 0 {
        order.removeLast()
        orderHoles -= 1
      }
      compactOrderIfSparse()
    }
    // The last loader first: the common case (shrinking a grid) stays O(1).
    guard let i = loaders.lastIndex(of: id) else { return }
    loaders.remove(at: i)
    // The engine gives its storage back as the field shrinks; these tables follow it.
    loaders.releaseExcessCapacity(factor: 4, floor: 1 << 10)
    if slots.count > engine.slotCount {
      slots.removeLast(slots.count - engine.slotCount)
      slots.releaseExcessCapacity(factor: 4, floor: 1 << 10)
      ringColorTable.removeLast(ringColorTable.count - engine.slotCount * style.ringCount)
      ringColorTable.releaseExcessCapacity(factor: 4, floor: 1 << 12)
      order.releaseExcessCapacity(factor: 4, floor: 1 << 10)
    }
  }

  /// The loader's `isAnimating` as last set (its turns may still be running after `false`).
  /// - Parameter id: a live loader's handle.
  /// - Returns: the last `isAnimating` given to `setAnimating(_:loader:at:)`,
  ///   `setAnimatingAll(_:at:)` or `addLoader(isAnimating:at:)`.
  /// - Throws: `LoaderField.Error` for a removed loader's handle.
  public func isAnimating(_ id: LoaderID) throws(Error) -> Bool {
    do { return try engine.isAnimating(id) } catch { throw .engine(error) }
  }

  /// Whether any loader animates.
  public var isAnyAnimating: Bool { engine.isAnyAnimating }

  /// `isAnimating = on` for one loader at `time` (see the Toggles section of `LoaderField`):
  /// a new schedule from ring 0 when on, running turns finish when off, nothing resets.
  /// - Parameters:
  ///   - on: the new `isAnimating`; the current value again changes nothing.
  ///   - id: a live loader's handle.
  ///   - time: caller seconds the toggle lands at (or the field's present, when a draw has
  ///     already stepped past it).
  /// - Throws: `LoaderField.Error` for a removed loader's handle, or a `time` that is not
  ///   finite, is before the start of the last step drawn, or maps past the last representable
  ///   loader time (about 140,000 years).
  public func setAnimating(_ on: Bool, loader id: LoaderID, at time: Double) throws(Error) {
    let at = try toggleTime(for: time)
    do { try engine.setAnimating(on, loader: id, at: at) } catch { throw .engine(error) }
  }

  /// `isAnimating = on` for every loader at `time`, as `setAnimating(_:loader:at:)` sets it
  /// for one.
  /// - Parameters:
  ///   - on: the new `isAnimating` of every loader.
  ///   - time: caller seconds the toggles land at.
  /// - Throws: `LoaderField.Error` for a `time` that is not finite, is before the start of the
  ///   last step drawn, or maps past the last representable loader time (about 140,000 years).
  public func setAnimatingAll(_ on: Bool, at time: Double) throws(Error) {
    let at = try toggleTime(for: time)
    do { try engine.setAnimatingAll(on, at: at) } catch { throw .engine(error) }
  }

  /// Steps the engine to the step containing `time` (without passing it) and returns the
  /// loader time the toggle lands at.
  private func toggleTime(for time: Double) throws(Error) -> Double {
    let tau = try loaderTime(at: time)
    try checkNotPast(tau, time: time)
    do { try engine.advance(toStepContaining: tau) } catch { throw .engine(error) }
    let at = max(tau, engine.time, lastToggle)
    lastToggle = at
    return at
  }
}
