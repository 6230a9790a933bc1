import LoaderSDL

/// Where the scene's rings sit in its container, in points: the field's own arrangement
/// (`.row` for the seed, `.grid` for the grid), which the trace and the window's clicks read.
typealias SceneLayout = LoaderField.Arrangement
