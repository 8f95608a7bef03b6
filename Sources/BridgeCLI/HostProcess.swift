#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HostConformance

/// `bridgectl verify`'s host: the command after `--`, started afresh for each case with its
/// standard input and output on pipes. The input is written while the output is read (a host may
/// answer before it has read everything), then standard input is closed; the case ends when the
/// host closes its output and exits. A host that takes longer than `timeoutMs` is killed.
struct HostProcess: HostLauncher {
    let command: [String]
    let timeoutMs: Int

    func run(input: [String]) -> Result<[String], HostRunError> {
        signal(SIGPIPE, SIG_IGN)  // a host that exits early must not take verify with it
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { return .failure(HostRunError("cannot make pipes")) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for end in inPipe + outPipe + errPipe { posix_spawn_file_actions_addclose(&actions, end) }
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let started = posix_spawnp(&child, command[0], &actions, nil, argv, environ)
        close(inPipe[0]); close(outPipe[1]); close(errPipe[1])
        guard started == 0 else {
            close(inPipe[1]); close(outPipe[0]); close(errPipe[0])
            return .failure(HostRunError("cannot start \(command[0]): \(String(cString: strerror(started)))"))
        }
        let exchange = Exchange(input: Array((input.joined(separator: "\n") + "\n").utf8), stdin: inPipe[1], stdout: outPipe[0], stderr: errPipe[0])
        let deadline = Exchange.nowMs() + timeoutMs
        var finished = exchange.run(until: deadline)
        var status: Int32 = 0
        // Output closed: the host should exit now; one that lingers past the deadline is killed.
        while finished && waitpid(child, &status, WNOHANG) == 0 {
            if Exchange.nowMs() >= deadline { finished = false; break }
            usleep(2_000)
        }
        if !finished {
            kill(child, SIGKILL)
            while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        }
        let output = exchange.lines
        guard finished else {
            return .failure(HostRunError("the host did not finish within \(timeoutMs) ms of its input (killed)", output: output))
        }
        // Exited normally with 0 (WIFEXITED and WEXITSTATUS, which Swift does not import).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            let how = status & 0x7f == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(status & 0x7f)"
            let said = exchange.errorText.split(separator: "\n").suffix(3).joined(separator: " / ")
            return .failure(HostRunError("the host \(how)\(said.isEmpty ? "" : ": " + said)", output: output))
        }
        return .success(output)
    }
}

/// The pipes of one run, served with poll(2) until the host closes its output or time is up.
private final class Exchange {
    private let input: [UInt8]
    private var written = 0
    private var stdin: Int32
    private var stdout: Int32
    private var stderr: Int32
    private var out: [UInt8] = []
    private var err: [UInt8] = []

    init(input: [UInt8], stdin: Int32, stdout: Int32, stderr: Int32) {
        self.input = input
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        _ = fcntl(stdin, F_SETFL, fcntl(stdin, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        for end in [stdin, stdout, stderr] where end >= 0 { close(end) }
    }

    var lines: [String] {
        String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    var errorText: String { String(decoding: err.suffix(4096), as: UTF8.self) }

    /// false when time ran out first.
    func run(until deadline: Int) -> Bool {
        while stdout >= 0 {
            let left = deadline - Self.nowMs()
            if left <= 0 { return false }
            var fds = [pollfd(fd: stdin, events: Int16(POLLOUT), revents: 0),
                       pollfd(fd: stdout, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stderr, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(left, 1000)))
            if ready < 0 && errno != EINTR { return false }
            if ready <= 0 { continue }
            if fds[0].revents != 0 { writeSome() }
            if fds[1].revents != 0 { readSome(&stdout, into: &out) }
            if fds[2].revents != 0 { readSome(&stderr, into: &err) }
        }
        return true
    }

    private func writeSome() {
        let count = input[written...].withUnsafeBytes { write(stdin, $0.baseAddress, $0.count) }
        if count > 0 { written += count }
        if written == input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
            close(stdin)  // all given (or the host stopped reading): end of input
            stdin = -1
        }
    }

    private func readSome(_ descriptor: inout Int32, into buffer: inout [UInt8]) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer += chunk[..<count]
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            close(descriptor)
            descriptor = -1
        }
    }

    static func nowMs() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
    }
}
