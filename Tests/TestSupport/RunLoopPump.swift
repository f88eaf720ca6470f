import Foundation

/// Runs this thread's RunLoop in short slices until `condition` holds.
///
/// No deadline: the event a test waits for ends the wait. A deadline failed correct tests on
/// a loaded machine (a notification delivered after 5 s), and a test whose event never comes
/// hangs where CI's job limit reports it, instead of passing or failing by the clock.
public func pumpRunLoop(until condition: () -> Bool) {
    while !condition() { _ = RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.01)) }
}
