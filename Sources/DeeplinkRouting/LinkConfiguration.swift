/// Where the app's links live: what `DeeplinkHandler` needs besides the routes. A bridge app
/// takes it from its contract manifest (BridgeContracts builds it); an app that only routes
/// links states it in its own configuration.
public struct LinkConfiguration: Sendable, Equatable {
    /// Hosts that Universal Links may use, lower-cased (`www.` only when listed).
    public let universalLinkHosts: [String]
    /// The custom scheme, lower-cased, e.g. "myapp".
    public let customScheme: String
    /// Where the web pages of the routes live, e.g. "https://www.example.com" (no trailing slash).
    public let webBaseURL: String
    /// The key of a push payload that holds the link; a JSON Pointer when it starts with "/".
    public let pushURLKey: String

    public init(universalLinkHosts: [String], customScheme: String, webBaseURL: String, pushURLKey: String = "deeplink") {
        self.universalLinkHosts = universalLinkHosts.map { $0.lowercased() }
        self.customScheme = customScheme.lowercased()
        self.webBaseURL = URLAssembly.trimmedBase(webBaseURL)
        self.pushURLKey = pushURLKey
    }
}
