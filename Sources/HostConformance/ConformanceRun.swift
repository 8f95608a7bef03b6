/// How verify reaches a host: start it fresh, give it the input lines, and take its output lines
/// once it has exited. A process in bridgectl; a double in tests.
public protocol HostLauncher {
    /// The host's output lines for `input`, or why the host could not be run (it would not start,
    /// did not exit in time, ...).
    func run(input: [String]) -> Result<[String], HostRunError>
}

public struct HostRunError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// What the host wrote before it failed, for the report.
    public let output: [String]

    public init(_ message: String, output: [String] = []) {
        self.message = message
        self.output = output
    }

    public var description: String { message }
}

/// One case's verdict.
public struct CaseResult: Sendable, Equatable {
    public let name: String
    public let level: ConformanceLevel
    public let problems: [String]
    public var passed: Bool { problems.isEmpty }
}

public enum ConformanceRun {
    /// The host's answer to a bare hello, or why it does not speak the protocol.
    public static func handshake(_ launcher: some HostLauncher) -> Result<HostTranscript, HostRunError> {
        let hello = ConformanceCase("hello", level: .core, lines: []) { _ in [] }
        switch launcher.run(input: hello.input) {
        case .failure(let error):
            return .failure(error)
        case .success(let output):
            let transcript = HostTranscript(output: output)
            guard let answer = transcript.all("hello").first else {
                let got = output.isEmpty ? "nothing" : output.prefix(2).joined(separator: " / ")
                return .failure(HostRunError("the host did not answer the hello line with {\"type\":\"hello\",...}; it wrote \(got)", output: output))
            }
            guard answer["protocol"]?.integerValue == Int64(HostProtocol.version) else {
                return .failure(HostRunError("the host speaks protocol \(answer["protocol"]?.serialized() ?? "(none)"); verify speaks \(HostProtocol.version)", output: output))
            }
            return .success(transcript)
        }
    }

    /// Runs one case on a fresh host.
    public static func run(_ testCase: ConformanceCase, on launcher: some HostLauncher) -> CaseResult {
        switch launcher.run(input: testCase.input) {
        case .failure(let error):
            return CaseResult(name: testCase.name, level: testCase.level, problems: ["the host failed: \(error.message)"])
        case .success(let output):
            return CaseResult(name: testCase.name, level: testCase.level, problems: testCase.problems(in: HostTranscript(output: output)))
        }
    }
}
