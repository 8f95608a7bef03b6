import DeeplinkRouting
import Testing

@Suite struct RouteTableTests {
    @Test func patternsEqualUpToParameterNamesAreRejected() {
        #expect(throws: RouteTableError.ambiguous(route: "checkout", pattern: "/order/:orderId", otherRoute: "orderDetail", otherPattern: "/order/:id")) {
            try RouteTable(routes: [RoutingFixtures.route("orderDetail", "/order/:id"), RoutingFixtures.route("checkout", "/order/:orderId")])
        }
        // A trailing slash does not make a pattern different.
        #expect(throws: RouteTableError.self) {
            try RouteTable(routes: [RoutingFixtures.route("a", "/event/:slug"), RoutingFixtures.route("b", "/event/:slug/")])
        }
    }

    @Test func ambiguityMessageNamesBothRoutes() {
        let error = RouteTableError.ambiguous(route: "b", pattern: "/x/:q", otherRoute: "a", otherPattern: "/x/:p")
        #expect(error.description.contains("\"a\" (/x/:p)") && error.description.contains("\"b\" (/x/:q)"))
    }

    @Test func sameShapeWithALiteralIsNoTie() throws {
        let table = try RouteTable(routes: [RoutingFixtures.route("detail", "/order/:id"), RoutingFixtures.route("latest", "/order/latest")])
        #expect(table.match(path: ["order", "latest"])?.0.name == "latest")
        #expect(table.match(path: ["order", "7"])?.1 == ["id": "7"])
        #expect(table.match(path: ["order"]) == nil)
        #expect(table.match(path: ["order", "7", "x"]) == nil)
    }

    @Test func badPatternsAreRejectedWithTheReason() {
        let cases: [(String, String)] = [
            ("event/:slug", "must start with \"/\""),
            ("/event//x", "empty segment (\"//\")"),
            ("/event/:", "a parameter needs a name after \":\""),
            ("/a/:id/b/:id", "parameter \"id\" appears twice"),
            ("/a%20b", "literal segment \"a%20b\" contains %, ? or # (write it unencoded, without query or fragment)"),
        ]
        for (pattern, reason) in cases {
            #expect(throws: RouteTableError.invalidPattern(route: "r", pattern: pattern, reason: reason)) {
                try RouteTable(routes: [RoutingFixtures.route("r", pattern)])
            }
        }
    }

    @Test func queryFieldsThatCouldNeverBeReadBackAreRejected() {
        #expect(throws: RouteTableError.self) {
            try RouteTable(routes: [RoutingFixtures.route("r", "/e/:slug", query: [.init(name: "slug", type: .string)])])
        }
        #expect(throws: RouteTableError.self) {
            try RouteTable(routes: [RoutingFixtures.route("r", "/e", query: [.init(name: "utm_source", type: .string)])])
        }
        #expect(throws: RouteTableError.self) {
            try RouteTable(routes: [RoutingFixtures.route("r", "/e", query: [.init(name: "variant", type: .string)])])
        }
    }

    @Test func duplicateNamesAreRejected() {
        #expect(throws: RouteTableError.duplicateName("a")) {
            try RouteTable(routes: [RoutingFixtures.route("a", "/a"), RoutingFixtures.route("a", "/b")])
        }
    }

    @Test func bundledRoutesFormATable() throws {
        let table = try RouteTable(routes: RoutingFixtures.routes)
        for name in ["eventCampaign", "orderDetail", "checkout", "reviewWrite", "applyForm", "vehicleList", "onboardingStart"] {
            #expect(table.route(named: name) != nil, "missing \(name)")
        }
    }

    @Test func tenThousandRoutesStillMatchTheRightOne() throws {
        // Correctness at scale; timing is bench/routes (RouteBench), not a unit test.
        var routes: [RouteDefinition] = []
        for index in 0..<10_000 {
            routes.append(RoutingFixtures.route("r\(index)", "/section\(index % 100)/item\(index / 100)/:id"))
        }
        let table = try RouteTable(routes: routes)
        for index in stride(from: 0, to: 10_000, by: 997) {
            let matched = table.match(path: ["section\(index % 100)", "item\(index / 100)", "x"])
            #expect(matched?.0.name == "r\(index)")
            #expect(matched?.1 == ["id": "x"])
        }
        #expect(table.match(path: ["section100", "item0", "x"]) == nil)
    }
}
