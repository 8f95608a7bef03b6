import BridgeCLI
import Foundation

exit(BridgeCLI.main(Array(CommandLine.arguments.dropFirst()), console: ProcessConsole()))
