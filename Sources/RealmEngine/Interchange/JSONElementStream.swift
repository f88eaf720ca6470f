import Foundation

/// Reads an import document in pieces — one element of its arrays at a time — so that an import
/// holds one object's JSON at once instead of the whole document's tree (a 127 MB file of
/// 1,000,000 objects took 1.8 GB as one `JSONValue`).
///
/// The document is one of the forms `ImportDocument` describes: a bare array of one class's
/// objects (its class named by the caller), or the whole-file form `{"Class": [object, …], …}`.
/// A scanner that follows strings and nesting cuts each element out of the bytes read so far,
/// and `JSONParser` parses it, as strictly as a whole document: every error names the line and
/// column in the whole input. Errors come in input order, when the reader reaches them; the
/// importer runs inside one write transaction, so nothing of a failed import is written.
public final class JSONElementStream {
    /// What the document holds next.
    public enum Event {
        /// The objects that follow (up to the next `group`) are of this class. Also for a class
        /// whose array is empty.
        case group(String)
        /// One object (as JSON) of the current group's class.
        case element(JSONValue)
    }

    /// Bytes read per call of the source.
    static let chunkSize = 1 << 20

    private let source: (UnsafeMutableRawBufferPointer) throws -> Int
    private let className: String?
    private var buffer: [UInt8] = []
    /// Where the source writes each read (then appended to `buffer`).
    private var scratch = [UInt8](repeating: 0, count: JSONElementStream.chunkSize)
    /// The next unread byte of `buffer`.
    private var position = 0
    /// Bytes dropped from the front of `buffer` so far.
    private var dropped: Int64 = 0
    private var sourceEnded = false
    /// Line (1-based) of `buffer[position]`.
    private var line = 1
    /// A place on that line, `buffer[columnFrom]`, and its column (1-based, in characters):
    /// the column of a byte is counted from there only when an error or a parse needs it, so
    /// that moving past the input looks only for line ends (counting every byte's column was
    /// a twentieth of a million-object import).
    private var columnFrom = 0
    private var columnAt = 1
    /// The column (1-based, in characters) of `buffer[position]`.
    private var column: Int { column(at: position, from: columnFrom, columnAt) }

    private enum State {
        case start
        /// Inside a class's array; `first`: no element read yet.
        case inArray(first: Bool, topLevel: Bool)
        /// Inside the whole-file object, between members; `first`: no member read yet.
        case inDocument(first: Bool)
        /// A group whose value is not an array was reported: the next call throws this.
        case refused(RealmError)
        case finished
    }
    private var state = State.start

    /// A stream over `source`, which fills the buffer it is given and returns how many bytes it
    /// wrote (0 at the end of the input) or throws. `className`: the class of a bare array
    /// (`--class`), nil for the whole-file form.
    public init(className: String?, source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        self.className = className
        self.source = source
    }

    /// A stream over bytes already in memory.
    public convenience init(className: String?, data: Data) {
        var offset = 0
        self.init(className: className) { buffer in
            let count = min(buffer.count, data.count - offset)
            guard count > 0 else { return 0 }
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<offset + count)
            offset += count
            return count
        }
    }

    /// Bytes held in memory now (tests: bounded by about two chunks and the largest element).
    var bufferedBytes: Int { buffer.count }

    /// Bytes of the input read and handled so far (for progress).
    public var bytesRead: Int64 { dropped + Int64(position) }

    /// The next event, or nil after the document's end (and only whitespace after it).
    public func next() throws -> Event? {
        try next(offering: nil)
    }

    /// `next()`, offering each element's bytes to `handle` first (the importer's reader of
    /// plain objects): when it returns true the element is done with and the stream goes on to
    /// the next event; when false the element is parsed as `next()` parses it. The bytes are
    /// valid only during the call.
    func next(offering handle: ((UnsafeBufferPointer<UInt8>) throws -> Bool)?) throws -> Event? {
        while true {
            switch state {
            case .finished:
                return nil
            case .refused(let error):
                throw error
            case .start:
                try skipWhitespace(allowingByteOrderMark: true)
                guard let first = try peek() else { throw error("empty input: expected a JSON value") }
                if first == UInt8(ascii: "[") {
                    guard let className else {
                        throw RealmError.invalidInput(
                            "the input is a JSON array of objects (as 'export --class C' writes); name their class with --class C"
                        )
                    }
                    try consume(1)
                    state = .inArray(first: true, topLevel: true)
                    return .group(className)
                }
                if first == UInt8(ascii: "{") {
                    if let className {
                        throw RealmError.invalidInput(
                            "the input is a whole-file document {\"Class\": [objects…]}, which names its classes; import it without --class \(className)"
                        )
                    }
                    try consume(1)
                    state = .inDocument(first: true)
                    continue
                }
                let document = try parseValue()
                throw RealmError.invalidInput(
                    "an import file is a JSON object of class name → array of objects, e.g. {\"Dog\": [{\"name\": \"Rex\"}]}, or (with --class) an array of objects; got \(document.kindName) \(document.snippet())"
                )
            case .inDocument(let first):
                try skipWhitespace()
                let byte = try peek()
                if byte == UInt8(ascii: "}") && (first || byte != nil) {
                    try consume(1)
                    try finish()
                    continue
                }
                if !first {
                    guard byte == UInt8(ascii: ",") else {
                        throw error("unexpected \(describe(byte)): expected ',' or '}' in an object")
                    }
                    try consume(1)
                    try skipWhitespace()
                }
                guard try peek() == UInt8(ascii: "\"") else {
                    throw error("unexpected \(try describe(peek())): expected a quoted member name")
                }
                guard case .string(let name) = try parseValue() else { throw error("expected a quoted member name") }
                try skipWhitespace()
                guard try peek() == UInt8(ascii: ":") else {
                    throw error("unexpected \(try describe(peek())): expected ':' after member name")
                }
                try consume(1)
                try skipWhitespace()
                if try peek() == UInt8(ascii: "[") {
                    try consume(1)
                    state = .inArray(first: true, topLevel: false)
                    return .group(name)
                }
                // Not an array: the importer names the class first (an unknown class is the
                // clearer error), then the value is refused.
                let value = try parseValue()
                state = .refused(
                    RealmError.invalidInput(
                        "\"\(name)\" must be an array of objects in an import file; got \(value.kindName) \(value.snippet())"
                    ))
                return .group(name)
            case .inArray(let first, let topLevel):
                try skipWhitespace()
                let byte = try peek()
                if byte == UInt8(ascii: "]") {
                    try consume(1)
                    if topLevel { try finish() } else { state = .inDocument(first: false) }
                    continue
                }
                if !first {
                    guard byte == UInt8(ascii: ",") else {
                        throw error("unexpected \(describe(byte)): expected ',' or ']' in an array")
                    }
                    try consume(1)
                    try skipWhitespace()
                }
                state = .inArray(first: false, topLevel: topLevel)
                let value = try cutValue()
                if let handle,
                    try buffer.withUnsafeBufferPointer({ all in
                        try handle(UnsafeBufferPointer(rebasing: all[value.start..<value.start + value.count]))
                    })
                {
                    continue
                }
                return .element(try parse(value))
            }
        }
    }

    /// After the document's closing bracket: only whitespace may follow.
    private func finish() throws {
        try skipWhitespace()
        if try peek() != nil { throw error("unexpected text after the JSON value") }
        state = .finished
    }

    // MARK: Bytes

    /// The byte at `position`, reading more when needed; nil at the end of the input.
    private func peek() throws -> UInt8? {
        if position == buffer.count, !(try fill()) { return nil }
        return buffer[position]
    }

    /// Reads another chunk onto the end of `buffer`; false at the end of the input.
    private func fill() throws -> Bool {
        guard !sourceEnded else { return false }
        let count = try scratch.withUnsafeMutableBytes { try source($0) }
        guard count > 0 else {
            sourceEnded = true
            return false
        }
        buffer.append(contentsOf: scratch[0..<min(count, scratch.count)])
        return true
    }

    /// Moves past `count` bytes (all already in `buffer`), keeping the line and where its
    /// column is counted from.
    private func consume(_ count: Int) throws {
        let (start, end) = (position, position + count)
        position = end
        if count == 1 {
            if buffer[start] == 0x0A { lineEnded(at: start) }
            return
        }
        var (line, lastEnd) = (self.line, -1)
        buffer.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            var from = start
            while from < end, let hit = memchr(base + from, 0x0A, end - from) {
                lastEnd = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                line += 1
                from = lastEnd + 1
            }
        }
        guard lastEnd >= 0 else { return }
        self.line = line - 1
        lineEnded(at: lastEnd)
    }

    /// A line ends with the byte at `index`: the next line starts at column 1 after it.
    private func lineEnded(at index: Int) {
        line += 1
        columnFrom = index + 1
        columnAt = 1
    }

    /// The column of `buffer[index]` on the line where `buffer[from]` has column `columnAt`
    /// (no line end between them): one more for each byte that starts a UTF-8 character.
    private func column(at index: Int, from: Int, _ columnAt: Int) -> Int {
        guard index > from else { return columnAt }
        return buffer.withUnsafeBufferPointer { bytes in
            var column = columnAt
            for byte in UnsafeBufferPointer(rebasing: bytes[from..<index]) where byte & 0xC0 != 0x80 { column += 1 }
            return column
        }
    }

    private func skipWhitespace(allowingByteOrderMark: Bool = false) throws {
        if allowingByteOrderMark, try peek() == 0xEF {
            while buffer.count - position < 3, try fill() {}
            if buffer[position...].starts(with: [0xEF, 0xBB, 0xBF]) {
                // Not a character of the first line: its column 1 is the byte after the mark.
                position += 3
                columnFrom = position
            }
        }
        while let byte = try peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            try consume(1)
        }
    }

    /// Cuts the JSON value at `position` out of the input and parses it.
    private func parseValue() throws -> JSONValue {
        try parse(cutValue())
    }

    /// Where a value cut out of `buffer` lies, and its line in the whole input and where its
    /// column is counted from (`columnFrom`, `columnAt` as they were at its start).
    private struct Cut {
        var start: Int
        var count: Int
        var line: Int
        var columnFrom: Int
        var columnAt: Int
    }

    /// Parses a value `cutValue` cut (before the buffer is read into again).
    private func parse(_ cut: Cut) throws -> JSONValue {
        let column = column(at: cut.start, from: cut.columnFrom, cut.columnAt)
        if cut.line == line && cut.columnFrom == columnFrom {
            // Still on the cut's line: the next column is counted from here, not from the line's
            // start again (on a one-line document that would be quadratic).
            (columnFrom, columnAt) = (cut.start, column)
        }
        return try buffer.withUnsafeBufferPointer { all in
            try JSONParser.parse(
                bytes: UnsafeBufferPointer(rebasing: all[cut.start..<cut.start + cut.count]), line: cut.line,
                column: column)
        }
    }

    /// Cuts the JSON value at `position` out of the input (following strings and nesting,
    /// reading more as needed) and moves past it.
    private func cutValue() throws -> Cut {
        // Bytes before the value are done with: dropped here, between values, because the scan
        // below holds indices into the buffer while it reads more.
        if position > Self.chunkSize {
            // The column is counted from a byte that stays (the line may be longer than the buffer).
            if columnFrom < position {
                columnAt = column
                columnFrom = position
            }
            columnFrom -= position
            buffer.removeFirst(position)
            dropped += Int64(position)
            position = 0
        }
        let (startLine, startColumnFrom, startColumnAt) = (line, columnFrom, columnAt)
        var end = position
        var depth = 0
        var inString = false
        var escaped = false
        // Scans what is buffered (through a pointer: no per-byte access check on `buffer`), then
        // reads more, until the value's end.
        var finished = false
        while !finished {
            if end == buffer.count, !(try fill()) { break }
            buffer.withUnsafeBufferPointer { bytes in
                scan: while end < bytes.count {
                    let byte = bytes[end]
                    if inString {
                        if escaped {
                            escaped = false
                        } else if byte == UInt8(ascii: "\\") {
                            escaped = true
                        } else if byte == UInt8(ascii: "\"") {
                            inString = false
                            if depth == 0 {
                                end += 1
                                finished = true
                                break scan
                            }
                        }
                        end += 1
                        continue
                    }
                    switch byte {
                    case UInt8(ascii: "\""):
                        inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        if depth == 0 {
                            finished = true
                            break scan
                        }
                        depth -= 1
                        if depth == 0 {
                            end += 1
                            finished = true
                            break scan
                        }
                    case UInt8(ascii: ","), 0x20, 0x0A, 0x0D, 0x09:
                        if depth == 0 {
                            finished = true
                            break scan
                        }
                    default:
                        break
                    }
                    end += 1
                }
            }
        }
        guard end > position else {
            let byte = try peek()
            throw error(byte == nil ? "unexpected end of input" : "unexpected \(describe(byte)): expected a JSON value")
        }
        let cut = Cut(
            start: position, count: end - position, line: startLine, columnFrom: startColumnFrom,
            columnAt: startColumnAt)
        try consume(cut.count)
        return cut
    }

    private func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "end of input" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    private func error(_ message: String) -> RealmError {
        RealmError.invalidInput("JSON: \(message) at line \(line), column \(column)")
    }
}
