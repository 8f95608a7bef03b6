import Testing
import JSONCore
import FunnelMetrics

/// Reading logs: both shapes, the host's implied facts, and bad lines named by number.
@Suite("funnel log reading")
struct FunnelLogTests {
    func read(_ text: String, _ format: FunnelInputFormat = .auto) throws(FunnelLogError) -> [FunnelEvent] {
        try FunnelLog.events(Array(text.utf8), format: format).events
    }

    func error(_ text: String, _ format: FunnelInputFormat = .auto) -> FunnelLogError? {
        do {
            _ = try read(text, format)
            return nil
        } catch {
            return error
        }
    }

    @Test("a host log's login prompt, sign-in and cold start become events; replies are skipped")
    func hostFacts() throws {
        let log = """
        {"type":"event","name":"push_clicked","properties":{"path":"/order/1","campaign_id":"c","source":"push"}}
        {"type":"envelope","envelope":1,"route":"orderDetail","outcome":"pending_login"}
        {"type":"login_presented"}
        {"type":"reply","v":1,"id":"x","ok":true}
        {"type":"envelope","envelope":1,"route":"orderDetail","outcome":"waiting_for_ready"}
        {"type":"envelope","envelope":1,"route":"orderDetail","outcome":"navigated"}
        """
        let result = try FunnelLog.events(Array(log.utf8))
        #expect(result.events.map(\.name) == ["push_clicked", "login_presented", FunnelEvent.hostSignIn, "cold_start_wait"])
        #expect(result.summary.hostLines == 6)
        #expect(result.summary.skippedLines == 1)
        #expect(result.events.allSatisfy { $0.sessionKey == nil && $0.time == nil })
    }

    @Test("an envelope cancelled while waiting for login is no sign-in")
    func cancelledLogin() throws {
        let log = """
        {"type":"envelope","envelope":1,"route":"orderDetail","outcome":"pending_login"}
        {"type":"envelope","envelope":1,"route":"orderDetail","outcome":"replaced_while_pending","by":2}
        {"type":"envelope","envelope":1,"route":"orderDetail","outcome":"navigated"}
        """
        #expect(try read(log).isEmpty)
    }

    @Test("an export line: distinct_id and time inside or beside properties, milliseconds taken as such")
    func exportLines() throws {
        let events = try read("""
        {"event":"push_clicked","properties":{"distinct_id":"u1","time":1764000000}}

        {"event":"screen_view","distinct_id":42,"time":"1764000002500","properties":{"screen":"s"}}\r
        """)
        #expect(events.map(\.sessionKey) == ["u1", "42"])
        #expect(events.map(\.time) == [1_764_000_000, 1_764_000_002.5])
        #expect(events.map(\.line) == [1, 3])
    }

    @Test("bad lines are named by number", arguments: [
        ("{\"event\":\"a\"}\nnot json", 2, "not JSON"),
        ("[1]", 1, "expected a JSON object, not an array"),
        ("{\"foo\":1}", 1, "neither a host line"),
        ("{\"event\":\"a\",\"properties\":[]}", 1, "\"properties\" must be an object"),
        ("{\"event\":\"\"}", 1, "\"event\" must be a non-empty string"),
        ("\n\n{\"event\":\"a\",\"time\":-5}", 3, "\"time\" must be seconds"),
        ("{\"type\":\"event\"}", 1, "an event line needs a \"name\""),
        ("{\"type\":\"envelope\",\"envelope\":\"1\"}", 1, "an envelope line needs"),
        ("\u{FEFF}{\"event\":\"a\"}", 1, "byte-order mark"),
    ])
    func badLines(text: String, line: Int, message: String) {
        let found = error(text)
        #expect(found?.line == line, "\(text)")
        #expect(found?.message.contains(message) == true, "\(String(describing: found))")
    }

    @Test("--input-format reads a line as its shape, even one that has the other shape's key too")
    func fixedFormatReadsItsShape() throws {
        let line = #"{"event":"push_clicked","type":"event","name":"screen_view","properties":{"distinct_id":"u1"}}"#
        let export = try FunnelLog.events(Array(line.utf8), format: .export)
        #expect(export.events.map(\.name) == ["push_clicked"])
        #expect(export.events.map(\.sessionKey) == ["u1"])
        #expect(export.summary.exportLines == 1 && export.summary.hostLines == 0)
        let host = try FunnelLog.events(Array(line.utf8), format: .host)
        #expect(host.events.map(\.name) == ["screen_view"])
        #expect(host.summary.hostLines == 1 && host.summary.exportLines == 0)
        #expect(try read(line).map(\.name) == ["screen_view"], "auto: a line with a type is a host line")
    }

    @Test("--input-format refuses the other shape")
    func fixedFormat() {
        #expect(error(#"{"event":"a"}"#, .host)?.message == "a host log line needs a \"type\" (--input-format host)")
        #expect(error(#"{"type":"event","name":"a"}"#, .export)?.message == "an export line needs an \"event\" (--input-format export)")
    }
}
