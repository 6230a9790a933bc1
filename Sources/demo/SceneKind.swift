/// `--scene`: the seed's single `LoaderView`, a grid of `--count` of them, or `--count` of them
/// riding bouncing sprites (`BouncingSprites`, SDL's testsprite2 with loaders).
enum SceneKind: String, CaseIterable, Sendable {
  case seed
  case grid
  case sprites
}
