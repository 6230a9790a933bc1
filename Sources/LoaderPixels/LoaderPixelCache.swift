#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ring shapes drawn into pixel buffers, with their masks, and the budget that bounds
/// them: what a `LoaderRenderer` is to an SDL renderer, for `PixelBuffer`s.
///
/// Every `LoaderField` and `LoaderView` drawing into buffers with one cache shares its masks;
/// draws that name none use `shared`, one for the process. After every draw `cachedBytes` is
/// within `budgetBytes`, counted as allocated: past it, what was drawn least recently goes,
/// and so does whatever no draw used for 1,024 draws. A frame whose own masks need more is
/// still drawn whole; they are given back after it, which costs time, not memory. The cache
/// never changes pixels (the Performance article, "Memory", says what is guaranteed).
///
/// ```swift
/// let cache = LoaderPixelCache(budgetBytes: 32 << 20)
/// try view.draw(
///   into: buffer, in: LoaderRect(x: 0, y: 0, width: 390, height: 120), at: now, cache: cache)
/// ```
///
/// Thread-safe: one draw at a time uses a cache (a draw from another thread waits for it),
/// so threads drawing at once should each have their own.
public final class LoaderPixelCache: Sendable {
  /// The cache of every draw into a buffer that names none.
  public static let shared = LoaderPixelCache()

  /// `budgetBytes` unless one is given: 128 MiB.
  public static let defaultBudgetBytes = 128 << 20

  /// Held by every use of `drawer`.
  private let lock = DrawLock()
  /// The kernel and the shape store. Safe to share: touched only by `withDrawer(_:)`, which
  /// holds `lock` for the whole call, so one thread at a time uses it; nothing of it escapes
  /// the call.
  private nonisolated(unsafe) let drawer: PixelBufferDrawer

  /// An empty cache.
  /// - Parameter budgetBytes: the most its masks hold between draws (at least 1 MiB: a
  ///   smaller value counts as 1 MiB).
  public init(budgetBytes: Int = LoaderPixelCache.defaultBudgetBytes) {
    drawer = PixelBufferDrawer(budgetBytes: budgetBytes)
  }

  /// The most the masks hold between draws, bytes as allocated (at least 1 MiB); a change
  /// reaches every mask at the end of the next draw.
  public var budgetBytes: Int {
    get { withDrawer { $0.shapes.budgetBytes } }
    set { withDrawer { $0.shapes.budgetBytes = newValue } }
  }

  /// Bytes the masks hold now, as allocated.
  public var cachedBytes: Int { withDrawer { $0.shapes.bytes } }

  /// Lets every mask go now (the cache holds what a new one does); the next draws rebuild what
  /// they need, the same bytes.
  public func purge() {
    withDrawer { $0.shapes.purge() }
  }

  /// Runs `body` with the drawer, holding the lock.
  func withDrawer<R, E: Error>(_ body: (PixelBufferDrawer) throws(E) -> R) throws(E) -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(drawer)
  }
}

/// A pthread mutex: what ThreadSanitizer (`make check-threads`) sees as synchronization, where
/// the futex under `Synchronization.Mutex` on Linux is invisible to it and every draw from a
/// second thread read as a race.
private final class DrawLock: @unchecked Sendable {
  // @unchecked Sendable: the mutex is the synchronization; its memory is allocated once, never
  // moved, and only touched through pthread calls.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  init() {
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }
  func unlock() { pthread_mutex_unlock(mutex) }
}
