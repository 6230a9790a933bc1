/// A command-line mistake: which flag (or argument), and what is wrong with it. Every one
/// prints as one line, `program: flag: problem` (`ErrorLine.format`), and exits with status 2.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The executable's name, the line's first word.
  package var program: String
  /// The flag the mistake is about, or what was typed where a flag was expected.
  package var flag: String
  package var problem: String

  package init(program: String, flag: String, problem: String) {
    self.program = program
    self.flag = flag
    self.problem = problem
  }

  package var description: String {
    // What was typed in a flag's place is a value: quoted (and cut) when it is long.
    let subject = flag.count > ErrorLine.valueLimit ? ErrorLine.quote(flag) : flag
    return ErrorLine.format("\(program): \(subject): \(problem)")
  }
}

/// What is wrong with one flag's value, before the table knows which flag it was.
package struct FlagProblem: Error, Sendable, Equatable {
  package var message: String
  package init(_ message: String) { self.message = message }
}
