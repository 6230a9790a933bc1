import SwiftLoaderSupport

/// Writes one error line to stderr, in the format both executables share (one line, long
/// values cut).
func printError(_ line: String) {
  ErrorLine.print(line)
}
