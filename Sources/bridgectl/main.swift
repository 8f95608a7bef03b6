import BridgeCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(BridgeCLI.main(Array(CommandLine.arguments.dropFirst()), console: ProcessConsole()))
