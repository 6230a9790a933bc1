extension LoaderField {
  // MARK: - Free placement

  /// Adds a loader (as `addLoader(isAnimating:at:)`) with its own frame: in `.free` layout
  /// its row is laid out in `frame` exactly as `.fittedRow` lays out a container.
  /// - Parameters:
  ///   - isAnimating: whether it animates from `time` on.
  ///   - time: caller seconds it appears at (see `addLoader(isAnimating:at:)`).
  ///   - frame: in the renderer's logical coordinates, relative to the container `draw` is
  ///     given (`draw(on:at:stoppingWhen:)`: the renderer's own coordinates); an empty frame
  ///     (zero width or height) draws nothing. Other layouts keep it but do not use it.
  /// - Returns: the new loader's handle.
  /// - Throws: `LoaderField.Error` for a `frame` that is not finite with a size >= 0, and
  ///   what `addLoader(isAnimating:at:)` throws.
  ///
  /// Complexity: amortized O(1).
  @discardableResult
  public func addLoader(isAnimating: Bool, at time: Double, frame: LoaderRect) throws(Error)
    -> LoaderID
  {
    try Self.validateLoaderFrame(frame)
    let id = try addLoader(isAnimating: isAnimating, at: time)
    slots[id.slot].frame = frame
    return id
  }

  /// Moves or resizes a loader: `frame` as `addLoader(isAnimating:at:frame:)` takes it. The
  /// next `draw` lays its row out there; nothing else changes (its motion goes on).
  /// - Parameters:
  ///   - frame: the new frame, finite with a size >= 0; an empty one draws nothing.
  ///   - id: a live loader's handle.
  /// - Throws: `LoaderField.Error` for a `frame` that is not finite with a size >= 0, or a
  ///   removed loader's handle.
  ///
  /// Complexity: O(1); allocates nothing.
  public func setFrame(_ frame: LoaderRect, of id: LoaderID) throws(Error) {
    try Self.validateLoaderFrame(frame)
    slots[try liveSlot(id)].frame = frame
  }

  /// The loader's frame as last set (an empty one at the origin when never set).
  /// - Parameter id: a live loader's handle.
  /// - Returns: the frame given to `setFrame(_:of:)` or `addLoader(isAnimating:at:frame:)`.
  /// - Throws: `LoaderField.Error` for a removed loader's handle.
  ///
  /// Complexity: O(1).
  @_disfavoredOverload
  public func frame(of id: LoaderID) throws(Error) -> LoaderRect {
    slots[try liveSlot(id)].frame
  }

  /// Where a loader's rings are: each ring's square frame, in the renderer's logical
  /// coordinates of the last draw (its container's corner added; the origin before any draw),
  /// as the next draw lays them out at that container. In `.free` layout from the loader's own
  /// frame (none when it is empty); in the others from its cell, none before the first draw.
  /// - Throws: `Error.engine` for a stale id.
  ///
  /// Complexity: O(rings per loader) in `.free` layout; O(n) in the others (the loader's cell
  /// is looked up in `loaders`).
  package func ringFrames(of id: LoaderID) throws(Error) -> [LayoutRect] {
    let s = try liveSlot(id)
    let container = lastContainer ?? LoaderRect.zero
    let (x0, y0) = (Double(container.x), Double(container.y))
    if layout == .free {
      let f = slots[s].frame
      guard f.width > 0, f.height > 0 else { return [] }
      let (w, h) = (Double(f.width), Double(f.height))
      let row = RowLayout.Fitted(width: w, height: h, style: style)
      let cy = y0 + Double(f.y) + row.centerY
      let half = row.ringRadius
      return (0..<style.ringCount).map { r in
        let cx = x0 + Double(f.x) + row.centerX(ofRing: r)
        return LayoutRect(x: cx - half, y: cy - half, width: 2 * half, height: 2 * half)
      }
    }
    guard lastContainer != nil, let i = loaders.firstIndex(of: id) else { return [] }
    let a = try arrangement(width: Double(container.width), height: Double(container.height))
    guard i < a.count else { return [] }
    let origin = a.origin(ofLoader: i)
    let half = a.ringRadius
    return a.ringOffsets.map { o in
      LayoutRect(
        x: x0 + origin.x + o.x - half, y: y0 + origin.y + o.y - half, width: 2 * half,
        height: 2 * half)
    }
  }

  // MARK: - Appearance

  /// Recolours a loader: ring `i` takes `colors[i % colors.count]` (straight alpha), or the
  /// style's colours again when `colors` is empty. Every layout draws it.
  /// - Parameters:
  ///   - colors: the ring colours, cycled over the rings; empty for the style's.
  ///   - id: a live loader's handle.
  /// - Throws: `LoaderField.Error` for a removed loader's handle.
  ///
  /// Complexity: O(rings per loader), independent of the loader count; allocates nothing.
  public func setColors(_ colors: [RGBAColor], of id: LoaderID) throws(Error) {
    let s = try liveSlot(id)
    let n = style.ringCount
    for r in 0..<n {
      ringColorTable[s * n + r] = colors.isEmpty ? ringColors[r] : colors[r % colors.count]
    }
  }

  /// Recolours one ring of a loader (one loader turning red when its job fails needs five of
  /// these, or one `setColors(_:of:)`).
  /// - Throws: `Error.engine(.ringOutOfRange)` for a ring outside `0..<style.ringCount`,
  ///   `Error.engine` for a stale id.
  ///
  /// Complexity: O(1); allocates nothing.
  package func setColor(_ color: RGBAColor, ofRing ring: Int, of id: LoaderID) throws(Error) {
    let s = try liveSlot(id)
    let n = style.ringCount
    guard ring >= 0, ring < n else { throw .engine(.ringOutOfRange(ring: ring, ringCount: n)) }
    ringColorTable[s * n + ring] = color
  }

  /// The loader's ring colours, ring by ring.
  /// - Parameter id: a live loader's handle.
  /// - Returns: one colour a ring, ring 0 first (`style.ringCount` of them).
  /// - Throws: `LoaderField.Error` for a removed loader's handle.
  ///
  /// Complexity: O(rings per loader); allocates the array.
  public func colors(of id: LoaderID) throws(Error) -> [RGBAColor] {
    let s = try liveSlot(id)
    let n = style.ringCount
    return Array(ringColorTable[(s * n)..<(s * n + n)])
  }

  /// Sets how opaque a loader is drawn, `0...1` (1: its colours as they are): every ring's
  /// alpha is multiplied by it. At 0 it costs no raster work.
  /// - Parameters:
  ///   - opacity: in `0...1`.
  ///   - id: a live loader's handle.
  /// - Throws: `LoaderField.Error` for an `opacity` outside `0...1` (NaN included), or a
  ///   removed loader's handle.
  ///
  /// Complexity: O(1); allocates nothing.
  public func setOpacity(_ opacity: Double, of id: LoaderID) throws(Error) {
    guard opacity >= 0, opacity <= 1 else { throw .invalidOpacity(opacity) }
    slots[try liveSlot(id)].opacity = Float(opacity)
  }

  /// The loader's opacity as last set (1 by default).
  /// - Parameter id: a live loader's handle.
  /// - Returns: the opacity, in `0...1`.
  /// - Throws: `LoaderField.Error` for a removed loader's handle.
  public func opacity(of id: LoaderID) throws(Error) -> Double {
    Double(slots[try liveSlot(id)].opacity)
  }

  /// Hides or shows a loader. A hidden loader keeps its motion and its place in the stacking
  /// order, costs `draw` nothing (no rings, no raster work), and is never under a point.
  /// - Parameters:
  ///   - hidden: true to hide the loader, false to show it again.
  ///   - id: a live loader's handle.
  /// - Throws: `LoaderField.Error` for a removed loader's handle.
  ///
  /// Complexity: O(1); allocates nothing.
  public func setHidden(_ hidden: Bool, of id: LoaderID) throws(Error) {
    slots[try liveSlot(id)].isHidden = hidden
  }

  /// Whether the loader is hidden (`setHidden(_:of:)`).
  /// - Parameter id: a live loader's handle.
  /// - Returns: the value last given to `setHidden(_:of:)` (false by default).
  /// - Throws: `LoaderField.Error` for a removed loader's handle.
  public func isHidden(_ id: LoaderID) throws(Error) -> Bool {
    slots[try liveSlot(id)].isHidden
  }

  // MARK: - Stacking

  /// Puts a loader on top of every other: in `.free` layout it is drawn last (over loaders it
  /// overlaps) and wins `loader(at:)` where they overlap. Loaders stack in the order they were
  /// added until raised.
  ///
  /// The order is an array of slots in which a raise leaves a hole and appends the loader;
  /// holes are squeezed out in place once they are as many as the loaders, so a raise is O(1)
  /// amortized and a draw walks at most twice as many entries as there are loaders.
  /// - Parameter id: a live loader's handle.
  /// - Throws: `LoaderField.Error` for a removed loader's handle.
  public func raise(_ id: LoaderID) throws(Error) {
    let s = try liveSlot(id)
    let at = Int(slots[s].order)
    guard at != order.count - 1 else { return }
    order[at] = -1
    orderHoles += 1
    slots[s].order = Int32(order.count)
    order.append(Int32(s))
    compactOrderIfSparse()
  }

  /// Every loader from the bottom of the stack to the top (`raise(_:)`).
  ///
  /// Complexity: O(n); allocates the array.
  package var stackingOrder: [LoaderID] {
    order.compactMap { $0 >= 0 ? slots[Int($0)].id : nil }
  }

  /// The topmost visible loader under `point`, in the renderer's logical coordinates of the
  /// last `draw` (its container offsets the frames in `.free` layout, and lays out the cells of
  /// the others); nil when there is none, or before the first draw in a layout other than
  /// `.free`. In `.free` layout a loader covers its whole frame (`[x, x + w) x [y, y + h)`); a
  /// hidden loader, or one with an empty frame, covers nothing.
  ///
  /// - Parameter point: in the renderer's logical coordinates, as `SDL_RenderFillRectF` takes
  ///   them.
  /// - Returns: the loader's handle, or nil.
  ///
  /// Complexity: O(n) in `.free` layout (from the top of the stack down), O(1) in the others.
  public func loader(at point: LoaderPoint) -> LoaderID? {
    let container = lastContainer ?? LoaderRect.zero
    let x = point.x - container.x
    let y = point.y - container.y
    guard x.isFinite, y.isFinite else { return nil }
    if layout == .free {
      for k in order.indices.reversed() {
        let s = Int(order[k])
        guard s >= 0 else { continue }
        let slot = slots[s]
        let f = slot.frame
        if !slot.isHidden, x >= f.x, y >= f.y, x < f.x + f.width, y < f.y + f.height {
          return slot.id
        }
      }
      return nil
    }
    guard lastContainer != nil,
      let a = try? arrangement(width: Double(container.width), height: Double(container.height)),
      let i = a.loader(atX: Double(x), y: Double(y)), loaders.indices.contains(i)
    else { return nil }
    let id = loaders[i]
    return slots[id.slot].isHidden ? nil : id
  }

  // MARK: - Storage

  /// The slot of a live loader, or `Error.engine(.staleLoader)`.
  ///
  /// Read from the field's own slot table: asking the engine (another module) copies the
  /// whole engine struct out of the class, retaining its arrays, on every call. Debug builds
  /// check the two agree.
  func liveSlot(_ id: LoaderID) throws(Error) -> Int {
    let live =
      id.slot >= 0 && id.slot < slots.count && slots[id.slot].isLive
      && slots[id.slot].id == id
    assert(live == engine.contains(id), "the field's slot table and its engine disagree on \(id)")
    guard live else { throw .engine(.staleLoader(id)) }
    return id.slot
  }

  /// Squeezes the holes `raise` and `remove` left out of `order` once they are as many as the
  /// loaders, in place.
  func compactOrderIfSparse() {
    guard orderHoles > 0, orderHoles >= order.count - orderHoles else { return }
    var kept = 0
    for k in order.indices where order[k] >= 0 {
      let s = Int(order[k])
      order[kept] = Int32(s)
      slots[s].order = Int32(kept)
      kept += 1
    }
    order.removeLast(order.count - kept)
    orderHoles = 0
  }

  static func validateLoaderFrame(_ f: LoaderRect) throws(Error) {
    guard f.x.isFinite, f.y.isFinite, f.width.isFinite, f.height.isFinite, f.width >= 0,
      f.height >= 0
    else {
      throw .invalidLoaderFrame(f)
    }
  }

  /// What the field keeps per engine slot besides its runs.
  struct Slot {
    var id: LoaderID
    /// The frame of `.free` layout, in the container's logical units.
    var frame = LoaderRect.zero
    /// `engine.firstRing(of: id)`.
    var firstRing: Int32 = 0
    /// Index in `order`, or -1.
    var order: Int32 = -1
    var opacity: Float = 1
    var isHidden = false
    /// Whether `id` is live (false for a removed loader's slot, and for the placeholders
    /// below a new slot).
    var isLive = false
  }
}
