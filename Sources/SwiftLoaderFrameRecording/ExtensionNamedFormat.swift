/// A file format named by its file name's extension: each case's raw value is the extension,
/// without the dot. `RecordingFormat` and the demo's vector formats read `--record`'s path
/// through it.
package protocol ExtensionNamedFormat: RawRepresentable, CaseIterable where RawValue == String {}

extension ExtensionNamedFormat {
  /// The format named by `path`'s extension (case ignored), or nil.
  package init?(path: String) {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    self.init(rawValue: path[path.index(after: dot)...].lowercased())
  }

  /// The extensions in case order, each with its dot (`.gif, .webp, .mp4, .webm`), for help
  /// and error messages.
  package static var extensionsList: String {
    allCases.map { "." + $0.rawValue }.joined(separator: ", ")
  }
}
