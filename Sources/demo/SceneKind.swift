/// `--scene`: the seed's single `LoaderView`, or a grid of `--count` of them.
enum SceneKind: String, CaseIterable, Sendable {
  case seed
  case grid
}
