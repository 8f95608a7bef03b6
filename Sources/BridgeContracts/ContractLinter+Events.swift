import JSONCore
import SchemaCheck

extension ContractLinter {
    /// Each event version's schema has examples that it accepts and that name the event and
    /// version they are filed under (the JS fake host and docs use them), and each version has a
    /// valid and an invalid event fixture, filed where they belong.
    func eventFindings(_ compiled: CompiledContracts) -> [LintFinding] {
        var findings: [LintFinding] = []
        for event in contracts.manifest.events {
            if event.name.isEmpty || !event.name.utf8.allSatisfy(Self.isEventNameByte) || event.name.utf8.first.map(Self.isDigit) == true {
                findings.append(LintFinding(file: "manifest.json", pointer: "/events/" + JSONPointer.escape(event.name),
                    message: "event names are lower-case letters, digits and underscores, starting with a letter (the page subscribes with bridge.on(\"name\"))"))
            }
            for contract in event.versions {
                guard let schema = compiled.eventSchema(event.name, version: contract.version) else { continue }
                findings += exampleFindings(contract, schema: schema)
                findings += eventFixtureCoverage(contract)
            }
        }
        for fixture in contracts.eventFixtures {
            guard let name = fixture.event, let version = fixture.version else {
                findings.append(LintFinding(file: fixture.path, pointer: "", message: "event fixtures live in event-fixtures/<event>/v<version>/"))
                continue
            }
            if contracts.manifest.event(named: name)?.contract(version: version) == nil {
                findings.append(LintFinding(file: fixture.path, pointer: "",
                    message: "is filed under \(name) v\(version), which manifest.json does not declare under \"events\""))
            }
        }
        return findings
    }

    private func exampleFindings(_ contract: EventContract, schema: CompiledSchema) -> [LintFinding] {
        let file = "schemas/\(contract.schema)"
        let examples = contracts.eventExamples(contract)
        guard !examples.isEmpty else {
            return [LintFinding(file: file, pointer: "/examples",
                message: "event \(contract.event) v\(contract.version) needs at least one example message (\"examples\": [...]): the web team's fake host sends it")]
        }
        var findings: [LintFinding] = []
        for (index, example) in examples.enumerated() {
            for unit in schema.validate(example).units {
                findings.append(LintFinding(file: file, pointer: "/examples/\(index)" + unit.instanceLocation,
                    message: "the example does not match its own schema: \(unit.error) (\(unit.keyword) at \(unit.keywordLocation))"))
            }
            if example["event"]?.stringValue != contract.event || example["version"]?.integerValue != Int64(contract.version) {
                findings.append(LintFinding(file: file, pointer: "/examples/\(index)",
                    message: "the example is not a \(contract.event) v\(contract.version) message (its \"event\" and \"version\" must say so)"))
            }
        }
        return findings
    }

    private func eventFixtureCoverage(_ contract: EventContract) -> [LintFinding] {
        let own = contracts.eventFixtures.filter { $0.event == contract.event && $0.version == contract.version }
        let folder = "\(EventFixture.folder)\(contract.event)/v\(contract.version)/"
        var findings: [LintFinding] = []
        if !own.contains(where: \.valid) {
            findings.append(LintFinding(file: folder, pointer: "", message: "no valid event fixture for \(contract.event) v\(contract.version)"))
        }
        if !own.contains(where: { !$0.valid }) {
            findings.append(LintFinding(file: folder, pointer: "", message: "no invalid event fixture for \(contract.event) v\(contract.version)"))
        }
        return findings
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isEventNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || isDigit(byte) || byte == UInt8(ascii: "_")
    }
}
