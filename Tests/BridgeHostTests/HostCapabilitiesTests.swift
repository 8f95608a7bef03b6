import Testing
import JSONCore
import BridgeContracts
import BridgeHost
import BridgeHostTesting
import TestSupport
import Foundation

/// The host as any app build of releases.json: it accepts exactly that build's action versions,
/// gives the page the same capability manifest by document-start script and by request, and
/// answers everything else with a code of the closed set.
@Suite("HostCapabilities: a host acts as an app build") @MainActor
struct HostCapabilitiesTests {
    static let contracts = try! repositoryContracts()
    static let catalog = try! contracts.releaseCatalog()

    func host(_ reference: String?) throws -> MockBridgeHost {
        let capabilities = try reference.map { try HostCapabilities(contracts: Self.contracts, release: try Self.catalog.release(reference: $0)) }
        return try MockBridgeHost(contracts: Self.contracts, capabilities: capabilities)
    }

    static let applyV2 = message(version: 2, payload: ["slug": "new-user-promo", "plan": "premium"])

    @Test func aBuildWithApplyV1OnlyAnswersV2WithTheVersionsItHas() throws {
        let host = try host("ios@5.12.0")
        let reply = try #require(host.receive(Self.applyV2))
        #expect(reply.error?.code == .unsupportedVersion)
        #expect(reply.error?.details == [["action": "apply", "supportedVersions": [1]]])
        #expect(host.navigations.isEmpty && host.analyticsEvents.isEmpty, "a rejected message changes nothing")
        let v1 = try #require(host.receive(message(id: "req-00000002")))
        #expect(v1.result?.route == "applyForm")
    }

    @Test func aBuildWithV1AndV2TakesV2() throws {
        #expect(try host("ios@5.13.0").receive(Self.applyV2)?.result?.route == "applyForm")
        #expect(try host(nil).receive(Self.applyV2)?.result?.route == "applyForm", "a development host takes every version")
    }

    @Test func aBuildWithoutTheActionDoesNotKnowIt() throws {
        let reply = try #require(try host("android@5.9.4").receive(message()))
        #expect(reply.error?.code == .unknownAction)
        #expect(reply.error?.message == "this app build does not have apply (actions: view_vehicles, start)")
    }

    @Test func theManifestNamesTheBuildAndItsVersionsInManifestOrder() throws {
        let capabilities = try host("ios@5.12.0").bridge.capabilities
        #expect(capabilities.json.serialized() == #"{"bridge":"sendyBridge","envelope":1,"app":{"platform":"ios","version":"5.12.0"},"actions":{"apply":[1],"view_vehicles":[1],"start":[1]}}"#)
        let development = HostCapabilities(contracts: Self.contracts)
        #expect(development.json.serialized() == #"{"bridge":"sendyBridge","envelope":1,"actions":{"apply":[1,2],"view_vehicles":[1],"start":[1],"open_directions":[1]},"events":{"navigation_completed":[1],"login_state_changed":[1]}}"#)
        let app = HostCapabilities(contracts: Self.contracts, app: try AppBuild(reference: "android@6.0.0-beta.1"))
        #expect(app.json["app"] == ["platform": "android", "version": "6.0.0-beta.1"])
    }

    @Test func aReleaseTakingAVersionTheContractsLackCannotBackAHost() throws {
        let release = AppRelease(build: try AppBuild(reference: "ios@9.0.0"), actions: [ActionVersions(action: "apply", versions: [1, 3])])
        #expect(throws: ReleaseError.self) { try HostCapabilities(contracts: Self.contracts, release: release) }
    }

    // MARK: the capabilities request

    static let request = #"{"v":1,"id":"caps-0001","action":"capabilities","version":1,"payload":{}}"#

    @Test func theCapabilitiesRequestGetsTheManifestAndChangesNothing() throws {
        let host = try host("ios@5.12.0")
        let reply = try #require(host.receive(Self.request))
        #expect(reply.capabilities == host.bridge.capabilities)
        #expect(reply.json.serialized() == #"{"v":1,"id":"caps-0001","ok":true,"result":{"bridge":"sendyBridge","envelope":1,"app":{"platform":"ios","version":"5.12.0"},"actions":{"apply":[1],"view_vehicles":[1],"start":[1]}}}"#)
        #expect(host.receive(Self.request)?.ok == true, "asking again with the same id is fine: it is not remembered")
        #expect(host.navigations.isEmpty && host.analyticsEvents.isEmpty)
    }

    @Test(arguments: [
        (#"{"v":1,"id":"caps-0001","action":"capabilities","version":2,"payload":{}}"#, "UNSUPPORTED_VERSION", "caps-0001"),
        (#"{"v":1,"id":"caps-0001","action":"capabilities","version":1,"payload":{"all":true}}"#, "INVALID_PARAMS", "caps-0001"),
        (#"{"v":1,"action":"capabilities","version":1,"payload":{}}"#, "INVALID_PARAMS", nil),
        (#"{"v":1,"id":"caps-0001","action":"capabilities","version":1}"#, "INVALID_MESSAGE", "caps-0001"),
    ])
    func everyOtherCapabilitiesRequestIsAnsweredWithACode(body: String, code: String, id: String?) throws {
        let reply = try #require(try host(nil).receive(body), "never silent")
        #expect(reply.error?.code.rawValue == code)
        #expect(reply.id == id)
    }

    @Test func theOriginPolicyAppliesToTheCapabilitiesRequestToo() throws {
        let host = try host(nil)
        #expect(host.receive(Self.request, origin: "https://evil.example")?.error?.code == .originRejected)
        #expect(host.receive(Self.request, isMainFrame: false)?.error?.code == .originRejected)
    }

    @Test func lintReservesTheName() throws {
        var files = try RepositoryPaths.jsonFiles(under: "contracts")
        files["manifest.json"] = files["manifest.json"]!.replacingOccurrences(of: #""start": {"#, with: #""capabilities": {"#)
        let findings = ContractLinter(contracts: try ContractSet(files: files, origin: "renamed")).lint()
        #expect(findings.contains { $0.pointer == "/actions/capabilities" && $0.message.contains("reserved") })
    }

    // MARK: the document-start script

    @Test func theScriptIsTheTemplateWithTheTwoArgumentsFilledIn() throws {
        let template = HostCapabilities.scriptTemplate
        for placeholder in ["BRIDGEKIT_CAPABILITIES_GLOBAL", "BRIDGEKIT_CAPABILITIES_MANIFEST"] {
            #expect(template.components(separatedBy: placeholder).count == 2, "\(placeholder) appears exactly once")
        }
        let capabilities = try host("android@5.12.3").bridge.capabilities
        let script = capabilities.documentStartScript
        #expect(!script.contains("BRIDGEKIT_"))
        #expect(script.hasSuffix(#"})(this, "sendyBridgeCapabilities", {"bridge":"sendyBridge","envelope":1,"app":{"platform":"android","version":"5.12.3"},"actions":{"apply":[1],"view_vehicles":[1],"start":[1]}});"# + "\n"))
        #expect(script.hasPrefix(String(template.prefix(while: { $0 != "}" }))), "the rest is the template as written")
    }
}
