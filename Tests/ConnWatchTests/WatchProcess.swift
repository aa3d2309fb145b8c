import ConnTestSupport

/// The watch tests' name for a process that prints JSON Lines.
typealias WatchProcess = JSONLinesProcess
