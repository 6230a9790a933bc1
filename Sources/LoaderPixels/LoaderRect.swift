/// A rectangle in points, in the coordinates of what the loaders draw into: the container of
/// `LoaderField.draw(into:in:at:cache:)`, a loader's own frame in `.free` layout. `Float`, as SDL's
/// `SDL_FRect`, so LoaderSDL's overloads that take SDL's rect mean exactly the same numbers.
public struct LoaderRect: Sendable, Hashable {
  /// The left edge, points.
  public var x: Float
  /// The top edge, points (y grows down).
  public var y: Float
  /// The width, points.
  public var width: Float
  /// The height, points.
  public var height: Float

  /// The rectangle from `(x, y)` of `width` x `height` points.
  /// - Parameters:
  ///   - x: the left edge.
  ///   - y: the top edge.
  ///   - width: the width.
  ///   - height: the height.
  public init(x: Float, y: Float, width: Float, height: Float) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The empty rectangle at the origin.
  static let zero = LoaderRect(x: 0, y: 0, width: 0, height: 0)
}

/// A point in the coordinates of what the loaders draw into (`LoaderField.loader(at:)`).
public struct LoaderPoint: Sendable, Hashable {
  /// Points from the left.
  public var x: Float
  /// Points from the top.
  public var y: Float

  /// The point `(x, y)`.
  /// - Parameters:
  ///   - x: points from the left.
  ///   - y: points from the top.
  public init(x: Float, y: Float) {
    self.x = x
    self.y = y
  }
}
