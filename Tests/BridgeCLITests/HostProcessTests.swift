import Testing
@testable import BridgeCLI

/// verify's host process: its output read as lines, blank ones dropped, whatever the host's
/// spacing; its exit status named.
@Suite struct HostProcessTests {
    @Test func blankLinesBetweenTheHostsLinesAreDropped() throws {
        let host = HostProcess(command: ["sh", "-c", #"cat >/dev/null; printf '{"a":1}\n\n\n{"b":2}\n\n'"#], timeoutMs: 10_000)
        #expect(try host.run(input: ["{}"]).get() == [#"{"a":1}"#, #"{"b":2}"#])
    }

    @Test func aHostThatExitsWithAStatusIsNamedWithItsLastWords() {
        let host = HostProcess(command: ["sh", "-c", "cat >/dev/null; echo 'no contracts here' >&2; exit 3"], timeoutMs: 10_000)
        guard case .failure(let error) = host.run(input: ["{}"]) else {
            Issue.record("a host that exits 3 passed")
            return
        }
        #expect(error.description.contains("the host exited with status 3: no contracts here"), "\(error)")
    }
}
