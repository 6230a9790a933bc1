import Foundation

/// Writes one line to stderr (the C `stderr` global is not concurrency-safe in Swift 6).
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
