import BridgeContracts
import DeeplinkRouting

/// The routes.json part of a diff. Links already sent (messenger, push, marketing) are read by
/// every app build that opens them, so a link the old routes read one way and the new routes
/// reject, or read as another route or other parameters, is a break. Links are built with the
/// old set's URL builder and read with both sets' `DeeplinkHandler`.
extension DiffRun {
    func compareRoutes() {
        let oldRoutes = old.contracts.routes, newRoutes = new.contracts.routes
        var renamedTo = Set<String>()
        for route in oldRoutes {
            let subject = Subject.route(route.name)
            let index = oldRoutes.firstIndex(of: route)!
            guard let now = newRoutes.first(where: { $0.name == route.name }) else {
                let links = sampleLinks(route)
                if let renamed = newRoutes.first(where: { Self.shape($0) == Self.shape(route) && old.contracts.route(named: $0.name) == nil }) {
                    renamedTo.insert(renamed.name)
                    findings.append(linkFinding(.routeRenamed, subject: subject, pointer: "/routes/\(index)/name",
                                                detail: "route \(route.name) (\(route.pattern)) renamed to \(renamed.name)", links: links))
                } else {
                    findings.append(linkFinding(.routeRemoved, subject: subject, pointer: "/routes/\(index)",
                                                detail: "route \(route.name) (\(route.pattern)) removed", links: links))
                }
                continue
            }
            if now.pattern != route.pattern {
                let sameShape = Self.shape(now) == Self.shape(route)
                findings.append(linkFinding(sameShape ? .routeParameterRenamed : .routePatternChanged, subject: subject,
                                            pointer: "/routes/\(index)/pattern",
                                            detail: sameShape
                                                ? "path parameter renamed: \(route.pattern) is now \(now.pattern)"
                                                : "pattern changed from \(route.pattern) to \(now.pattern)",
                                            links: sampleLinks(route)))
            }
            if Self.shape(now) == Self.shape(route) {
                for (position, name) in route.parameterNames.enumerated() {
                    let newName = now.parameterNames[position]
                    let before = route.parameters[name] ?? .string, after = now.parameters[newName] ?? .string
                    guard before != after else { continue }
                    let links = Self.sampleValues.compactMap { value -> String? in
                        var parameters = sampleParameters(route)
                        parameters[name] = value
                        return try? old.handler.urlBuilder.build(route: route.name, parameters: parameters)
                    }
                    findings.append(linkFinding(.routeParameterTypeChanged, subject: subject, pointer: "/routes/\(index)/parameters/\(name)",
                                                detail: "path parameter \(name) changed from \(before.rawValue) to \(after.rawValue)",
                                                links: links, onlyWidens: "links the new routes accept and the old ones reject open only in new app builds"))
                }
            }
            compareQuery(route, now, index: index, subject: subject)
            var behaviour: [String] = []
            if route.requiresAuth != now.requiresAuth { behaviour.append("requiresAuth \(route.requiresAuth) -> \(now.requiresAuth)") }
            if route.tab != now.tab { behaviour.append("tab \(route.tab) -> \(now.tab)") }
            if route.list != now.list { behaviour.append("list \(route.list ?? "none") -> \(now.list ?? "none")") }
            if route.screen != now.screen { behaviour.append("screen \(route.screen) -> \(now.screen)") }
            if route.presentation != now.presentation { behaviour.append("presentation \(route.presentation.rawValue) -> \(now.presentation.rawValue)") }
            if !behaviour.isEmpty {
                findings.append(Finding(kind: .routeBehaviourChanged, severity: .info, subject: subject, schemaPointer: "/routes/\(index)",
                                        detail: behaviour.joined(separator: ", ")))
            }
        }
        for route in newRoutes where old.contracts.route(named: route.name) == nil && !renamedTo.contains(route.name) {
            findings.append(Finding(kind: .routeAdded, severity: .info, subject: .route(route.name),
                                    schemaPointer: "/routes/\(newRoutes.firstIndex(of: route)!)",
                                    detail: "route \(route.name) (\(route.pattern)) added; new path: devices may not open it in the app for up to 48 h after the AASA is deployed (iOS caches apple-app-site-association); app builds in the field open its links on the web"))
        }
    }

    private func compareQuery(_ route: RouteDefinition, _ now: RouteDefinition, index: Int, subject: Subject) {
        let added = now.query.filter { field in !route.query.contains { $0.name == field.name } }
        let removed = route.query.filter { field in !now.query.contains { $0.name == field.name } }
        // One name out, one of the same type in: a rename, reported once.
        if added.count == 1, removed.count == 1, added[0].type == removed[0].type {
            let (before, after) = (removed[0], added[0])
            var finding = Finding(kind: .routeQueryFieldRenamed, severity: .possiblyBreaking, subject: subject,
                                  schemaPointer: "/routes/\(index)/query/\(after.name)",
                                  detail: "query field \(before.name) renamed to \(after.name) (\(after.type.rawValue))")
            finding.note = "links already sent carry ?\(before.name)=, which the new routes keep untyped: a screen that reads \(after.name) gets nothing from them"
            findings.append(finding)
            return
        }
        for field in now.query {
            let pointer = "/routes/\(index)/query/\(field.name)"
            let links = Self.sampleValues.compactMap { value in sampleLink(route, query: [(field.name, value)]) }
            guard let before = route.query.first(where: { $0.name == field.name }) else {
                if field.type == .string {
                    findings.append(Finding(kind: .routeQueryFieldAdded, severity: .compatible, subject: subject, schemaPointer: pointer,
                                            detail: "query field \(field.name) (string) declared; any value it had is still accepted"))
                } else {
                    findings.append(linkFinding(.routeQueryFieldAdded, subject: subject, pointer: pointer,
                                                detail: "query field \(field.name) declared as \(field.type.rawValue)", links: links))
                }
                continue
            }
            if before.type != field.type {
                findings.append(linkFinding(.routeQueryTypeChanged, subject: subject, pointer: pointer,
                                            detail: "query field \(field.name) changed from \(before.type.rawValue) to \(field.type.rawValue)",
                                            links: links, onlyWidens: "links the new routes accept and the old ones reject open only in new app builds"))
            }
        }
        for field in route.query where !now.query.contains(where: { $0.name == field.name }) {
            findings.append(Finding(kind: .routeQueryFieldRemoved, severity: .info, subject: subject,
                                    schemaPointer: "/routes/\(index)/query/\(field.name)",
                                    detail: "query field \(field.name) no longer declared (its values are kept, untyped)"))
        }
    }

    /// Proves a link change: the first link the old routes read and the new ones reject or read
    /// differently. `onlyWidens` is the note when no old link breaks (the change only accepts more).
    func linkFinding(_ kind: FindingKind, subject: Subject, pointer: String, detail: String, links: [String],
                     onlyWidens: String? = nil) -> Finding {
        var finding = Finding(kind: kind, severity: .possiblyBreaking, subject: subject, schemaPointer: pointer, detail: detail)
        for link in links {
            guard case .success(let before) = old.read(link: link) else { continue }
            let rejection: String
            switch new.read(link: link) {
            case .success(let after) where after == before:
                continue
            case .success(let after):
                rejection = "the new routes read it as \(after.summary), not \(before.summary)"
            case .failure(let error):
                rejection = "the new routes reject it: \(error)"
            }
            finding.severity = .breaking
            finding.counterexample = Counterexample(acceptedBy: .old, message: nil, url: link, origin: nil, rejection: rejection, newVerdict: nil)
            return finding
        }
        if let onlyWidens {
            finding.severity = .info
            finding.note = onlyWidens
        } else {
            finding.note = "none of \(links.count) links built from the old routes reads differently with the new ones"
        }
        return finding
    }

    /// Values tried for a typed parameter: each type's kind of value, and ones just outside.
    static let sampleValues = ["sample", "1", "42", "3f1c2a9e-7d2c-4e1a-9b3f-5c6d7e8f9a0b", "Sample", "a_b", "a b", "-1", "가",
                               String(repeating: "a", count: 65), "0"]

    private func sampleParameters(_ route: RouteDefinition) -> [String: String] {
        var parameters: [String: String] = [:]
        for name in route.parameterNames {
            let type = route.parameters[name] ?? .string
            parameters[name] = Self.sampleValues.first { ParameterRules.isValid($0, as: type) } ?? "sample"
        }
        return parameters
    }

    func sampleLinks(_ route: RouteDefinition) -> [String] {
        var links: [String] = []
        for scheme in [DeeplinkURLBuilder.Scheme.https, .custom] {
            if let link = try? old.handler.urlBuilder.build(route: route.name, parameters: sampleParameters(route), scheme: scheme) {
                links.append(link)
            }
        }
        return links
    }

    func sampleLink(_ route: RouteDefinition, query: [(String, String)]) -> String? {
        guard let base = try? old.handler.urlBuilder.build(route: route.name, parameters: sampleParameters(route)) else { return nil }
        return base + "?" + query.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
    }

    func sampleLinks(host: String) -> [String] {
        let webBase = old.handler.webBaseURL
        return old.contracts.routes.compactMap { route in
            guard let link = try? old.handler.urlBuilder.build(route: route.name, parameters: sampleParameters(route)),
                  link.hasPrefix(webBase) else { return nil }
            return "https://" + host + link.dropFirst(webBase.count)
        }
    }

    func sampleLinks(scheme: DeeplinkURLBuilder.Scheme) -> [String] {
        old.contracts.routes.compactMap { try? old.handler.urlBuilder.build(route: $0.name, parameters: sampleParameters($0), scheme: scheme) }
    }

    /// The pattern with parameter names blanked: two routes of one shape match the same links.
    static func shape(_ route: RouteDefinition) -> [String] {
        route.segments.map { $0.hasPrefix(":") ? ":" : $0 }
    }

    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80 && (character.isLetter || character.isNumber || "-._~".contains(character)) {
                out.append(character)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return out
    }
}

extension String {
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
