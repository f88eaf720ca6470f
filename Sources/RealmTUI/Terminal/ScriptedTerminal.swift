import Foundation

/// A terminal for tests and the headless benchmark: returns events from a script, records what
/// was drawn and copied, and whether it was closed. No screen is touched.
///
/// ```swift
/// let terminal = ScriptedTerminal(width: 80, height: 24, events: [.key(.down), .key(.character("q"))])
/// try session.run(on: terminal)
/// terminal.lastFrame?.lines   // the screen after the last event
/// ```
public final class ScriptedTerminal: TerminalBackend {
    /// The terminal's size; a `.resize` event taken from the script changes it, as a real
    /// terminal's would have changed before it reported the resize.
    public var size: (width: Int, height: Int)
    /// Whether the view may use colours.
    public var hasColor: Bool
    /// The events still to be returned, first one next.
    public private(set) var pendingEvents: [TerminalEvent]
    /// Returned by `nextEvent` once the script is used up (nil: "no event in time"). Set it to a
    /// quit key so a session under test always ends.
    public var eventWhenScriptEnds: TerminalEvent?
    /// The frames drawn, oldest first; at most `framesKept` of them (the newest).
    public private(set) var frames: [Grid] = []
    /// How many frames to keep (a benchmark drawing thousands of frames keeps one).
    public let framesKept: Int
    /// How many times `draw` was called.
    public private(set) var drawCount = 0
    /// The texts given to `copyToClipboard`, in order.
    public private(set) var copiedTexts: [String] = []
    /// Whether `close()` was called.
    public private(set) var isClosed = false
    /// The timeouts `nextEvent` was called with, in order (the last 1,000).
    public private(set) var requestedTimeouts: [Int] = []

    /// A terminal of `width` × `height` cells that will return `events` in order.
    public init(
        width: Int = 80, height: Int = 24, hasColor: Bool = true, events: [TerminalEvent] = [],
        framesKept: Int = Int.max
    ) {
        size = (width, height)
        self.hasColor = hasColor
        pendingEvents = events
        self.framesKept = max(1, framesKept)
    }

    /// The last frame drawn.
    public var lastFrame: Grid? { frames.last }

    /// Adds events to the end of the script.
    public func enqueue(_ events: TerminalEvent...) {
        pendingEvents.append(contentsOf: events)
    }

    /// Adds events to the end of the script.
    public func enqueue(contentsOf events: [TerminalEvent]) {
        pendingEvents.append(contentsOf: events)
    }

    /// Records `grid`.
    public func draw(_ grid: Grid) {
        drawCount += 1
        if frames.count >= framesKept { frames.removeFirst(frames.count - framesKept + 1) }
        frames.append(grid)
    }

    /// The next scripted event (never waits).
    public func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        if requestedTimeouts.count >= 1000 { requestedTimeouts.removeFirst() }
        requestedTimeouts.append(timeoutMilliseconds)
        guard !pendingEvents.isEmpty else { return eventWhenScriptEnds }
        let event = pendingEvents.removeFirst()
        if case .resize(let width, let height) = event { size = (width, height) }
        return event
    }

    /// Records `text`.
    private let wakeLock = NSLock()
    private var wakes = 0

    /// Wake-ups received (from any thread; a script has no wait to cut short).
    public var wakeCount: Int { wakeLock.withLock { wakes } }

    public func wake() {
        wakeLock.withLock { wakes += 1 }
    }

    public func copyToClipboard(_ text: String) {
        copiedTexts.append(text)
    }

    /// Records that the terminal was given back.
    public func close() {
        isClosed = true
    }
}
