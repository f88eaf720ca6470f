import Foundation
@testable import RealmEngine
import Testing

/// The import document read in pieces (`JSONElementStream`) gives the same objects, and the
/// same errors at the same line and column, as the whole document parsed at once — wherever
/// the reads cut the bytes — and holds a bounded part of the input.
@Suite struct JSONElementStreamTests {
    /// Every event of `text`, read `step` bytes at a time.
    static func events(_ text: String, className: String? = nil, step: Int = 1 << 20) throws -> [String] {
        let bytes = Array(text.utf8)
        var offset = 0
        let stream = JSONElementStream(className: className) { buffer in
            let count = min(step, buffer.count, bytes.count - offset)
            guard count > 0 else { return 0 }
            buffer.copyMemory(
                from: UnsafeRawBufferPointer(rebasing: bytes.withUnsafeBytes { $0 }[offset..<offset + count]))
            offset += count
            return count
        }
        var out: [String] = []
        while let event = try stream.next() {
            switch event {
            case .group(let name): out.append("group \(name)")
            case .element(let json): out.append(json.jsonText())
            }
        }
        return out
    }

    /// The error `text` gives read `step` bytes at a time.
    static func error(_ text: String, className: String? = nil, step: Int) -> String? {
        do {
            _ = try events(text, className: className, step: step)
            return nil
        } catch {
            return (error as? RealmError)?.description ?? "\(error)"
        }
    }

    static let document = """
        \u{FEFF}{"Dog": [{"name": "Rex \\"the\\" [dog]", "age": 3},
                 {"name": "小白", "tags": ["a", "b,c"], "owner": {"$ref": "Person", "$index": 0}}],
          "Person": [],
          "Cat": [ [1, "x"] , {"nested": {"deep": [1, [2, {"k": "}"}]]}} ]
        }
        """

    @Test func everyCutOfTheInputGivesTheSameObjects() throws {
        let whole = try Self.events(Self.document)
        #expect(whole.first == "group Dog")
        #expect(whole.filter { $0.hasPrefix("group") } == ["group Dog", "group Person", "group Cat"])
        #expect(whole.count == 7)
        for step in [1, 2, 3, 5, 7, 16, 64] {
            #expect(try Self.events(Self.document, step: step) == whole, "read \(step) bytes at a time")
        }
        let array = "[ {\"a\": 1}, {\"a\": [2]} ]"
        #expect(try Self.events(array, className: "Dog", step: 1) == ["group Dog", "{\"a\":1}", "{\"a\":[2]}"])
    }

    @Test(arguments: [
        "{\"Dog\": [{\"name\": \"Rex\"}, {\"name\": tru}]}",
        "{\"Dog\": [{\"name\": \"Rex\"},\n {\"name\": \"x\"} {\"name\": \"y\"}]}",
        "{\"Dog\": [{\"name\": \"Rex\"},\n  {\"name\": \"漢字\", \"age\": 1.}]}",
        "{\"Dog\": [{\"name\": \"Rex\"}]} trailing",
        "{\"Dog\": [{\"name\": \"Rex\"},]}",
        "{\"Dog\": [{\"name\": \"Rex\"}",
        "{\"Dog\" [1]}",
        "",
        "{",
        "{\"Dog\": [",
        "{\"Dog\": [1",
        "{\"Dog\": [1],",
        "{\"Dog\": [1] ",
        "{\"Dog\": [1,,2]}",
    ])
    func errorsNameTheSamePlaceAsTheWholeDocumentParse(text: String) throws {
        let whole: String
        do {
            _ = try JSONParser.parse(text)
            // Parses as a whole: the stream's error is about the form (an element that is
            // not an object is the importer's to refuse), so only the parse errors compare.
            return
        } catch {
            whole = (error as? RealmError)?.description ?? "\(error)"
        }
        for step in [1, 4, 1 << 20] {
            let streamed = try #require(Self.error(text, step: step), "no error reading \(step) bytes at a time")
            #expect(streamed == whole, "read \(step) at a time")
        }
    }

    /// Lines longer than the bytes the stream holds (a document written on one line, with
    /// multi-byte characters before the error): the column is still counted from the line's
    /// start, as the whole-document parse counts it.
    @Test func errorsOnLinesLongerThanTheBufferNameTheirColumn() throws {
        let element = #"{"name": "名前 with some text", "n": 1}"#
        let many = Array(repeating: element, count: 3 * JSONElementStream.chunkSize / element.utf8.count)
        for text in [
            "{\"Dog\": [" + many.joined(separator: ", ") + ", {\"name\": tru}]}",
            "{\"Dog\": [\n" + many.joined(separator: ", ") + ",\n  " + many.joined(separator: ", ") + ", [1 2]]}",
            "{\"Dog\": [" + many.joined(separator: ", ") + "] x",
        ] {
            let whole: String
            do {
                _ = try JSONParser.parse(text)
                Issue.record("the whole document parsed")
                continue
            } catch {
                whole = (error as? RealmError)?.description ?? "\(error)"
            }
            #expect(whole.contains("column"), "\(whole)")
            for step in [1 << 20, 4093] {
                #expect(Self.error(text, step: step) == whole, "read \(step) at a time")
            }
        }
    }

    @Test func theDocumentFormsAreCheckedAsBefore() throws {
        #expect(Self.error("[{\"a\": 1}]", step: 3)?.contains("name their class with --class") == true)
        #expect(
            Self.error("{\"Dog\": []}", className: "Dog", step: 3)?.contains("import it without --class Dog") == true)
        #expect(Self.error("42", step: 1)?.contains("got number 42") == true)
        let notArray = Self.error("{\"Dog\": {\"name\": \"Rex\"}}", step: 2)
        #expect(notArray?.contains("\"Dog\" must be an array of objects") == true, "\(notArray ?? "no error")")
    }

    @Test func aLargeInputIsHeldAFewChunksAtATime() throws {
        let objects = 80_000
        var text = "{\"Item\": ["
        text += (0..<objects).map { "{\"id\": \($0), \"name\": \"item \($0) with some text to make it longer\"}" }
            .joined(separator: ",\n")
        text += "]}"
        let bytes = Array(text.utf8)
        #expect(bytes.count > 4 * JSONElementStream.chunkSize)
        var offset = 0
        let stream = JSONElementStream(className: nil) { buffer in
            let count = min(buffer.count, bytes.count - offset)
            guard count > 0 else { return 0 }
            buffer.copyMemory(
                from: UnsafeRawBufferPointer(rebasing: bytes.withUnsafeBytes { $0 }[offset..<offset + count]))
            offset += count
            return count
        }
        var elements = 0
        var largestBuffer = 0
        while let event = try stream.next() {
            if case .element = event { elements += 1 }
            largestBuffer = max(largestBuffer, stream.bufferedBytes)
        }
        #expect(elements == objects)
        #expect(largestBuffer <= 3 * JSONElementStream.chunkSize, "held \(largestBuffer) bytes of \(bytes.count)")
        #expect(stream.bytesRead == Int64(bytes.count))
    }
}
