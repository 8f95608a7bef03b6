import DeeplinkRouting

/// Answers the funnel's screen questions from the app's deep link configurations (routes.json):
/// a link opens the screen of the route its path matches, a CTA names its route, and a screen
/// needs login when its route does.
public struct RouteScreenResolver: ScreenResolver {
    private let table: RouteTable
    private let loginScreens: Set<String>

    public init(routes: RouteTable) {
        table = routes
        loginScreens = Set(routes.routes.filter(\.requiresAuth).map(\.screen))
    }

    /// `/event/x`, `https://host/event/x?q=1`, `myapp://event/x`: the screen of the matching route.
    public func screen(forLink link: String) -> String? {
        var rest = Substring(link)
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            let scheme = rest[..<colon].lowercased()
            rest = rest[rest.index(colon, offsetBy: 3)...]
            // A web link's authority is its host; a custom scheme's "host" is the path's first segment.
            if scheme == "http" || scheme == "https" {
                rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
            }
        }
        var segments: [String] = []
        for raw in rest.split(separator: "/", omittingEmptySubsequences: true) {
            guard case .success(let decoded) = PercentEncoding.decode(String(raw)) else { return nil }
            segments.append(decoded)
        }
        return table.match(path: segments)?.0.screen
    }

    public func screen(forRoute route: String) -> String? {
        table.route(named: route)?.screen
    }

    public func requiresLogin(screen: String) -> Bool {
        loginScreens.contains(screen)
    }
}
