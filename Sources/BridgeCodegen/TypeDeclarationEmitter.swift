import BridgeContracts
import JSONCore

/// bridge.d.ts: payload and message types converted from the JSON Schemas, one typed function
/// per action and version, and the types of the runtime (BridgeError, BridgeResult, options).
struct TypeDeclarationEmitter {
    let model: ShimModel
    let contracts: ContractSet
    let header: Header

    static let envelopeTypeName = "BridgeEnvelope"
    static let campaignTypeName = "CampaignMetadata"

    private func payloadName(_ action: ShimModel.Action, _ version: ShimModel.Version) -> String {
        TypeScriptNames.pascalCase(action.name) + "V\(version.version)Payload"
    }

    private func messageName(_ action: ShimModel.Action, _ version: ShimModel.Version) -> String {
        TypeScriptNames.pascalCase(action.name) + "V\(version.version)Message"
    }

    func text() throws(CodegenError) -> String {
        let plain = TypeScriptSchemaConverter(contracts: contracts)
        var names: [SchemaLocation: String] = [
            SchemaLocation(file: model.envelopeSchemaFile, pointer: ""): Self.envelopeTypeName,
            SchemaLocation(file: model.campaignSchemaFile, pointer: ""): Self.campaignTypeName,
        ]
        // Where each version's payload schema lives (its $ref target, or the property itself).
        var payloadLocations: [String: SchemaLocation] = [:]
        for action in model.actions {
            for version in action.versions {
                let location = try plain.referenceTarget(file: version.schemaFile, pointer: "/properties/payload")
                    ?? SchemaLocation(file: version.schemaFile, pointer: "/properties/payload")
                payloadLocations[payloadName(action, version)] = location
                names[location] = payloadName(action, version)
            }
        }
        let converter = TypeScriptSchemaConverter(contracts: contracts, namedLocations: names)

        var out = header.comment(for: "bridge.d.ts") + "\n"
        out += "// Types converted from the JSON Schemas. Constraints TypeScript cannot express are in the\n"
        out += "// JSDoc tags (@pattern, @maxLength, @minimum, @integer...); the app validates them.\n\n"
        out += try alias(Self.campaignTypeName, converter.render(file: model.campaignSchemaFile))
        out += try alias(Self.envelopeTypeName, converter.render(file: model.envelopeSchemaFile))
        for action in model.actions {
            for version in action.versions {
                let location = payloadLocations[payloadName(action, version)]!
                // Rendered at the payload's own location, so it is written out, not named.
                var payload = try plain.render(file: location.file, pointer: location.pointer)
                if payload.docs.isEmpty { payload.docs = ["Payload of \(action.name) v\(version.version) (\(action.title))."] }
                out += alias(payloadName(action, version), payload)
                var message = try converter.render(file: version.schemaFile)
                message.docs = ["The whole message of \(action.name) v\(version.version), as validated by schemas/\(version.schemaFile)."]
                out += alias(messageName(action, version), message)
            }
        }
        out += "/** Payload types by action and version, for `bridge.send`. */\n"
        out += "export interface ActionPayloads {\n"
        for action in model.actions {
            let versions = action.versions.map { "\($0.version): \(payloadName(action, $0))" }.joined(separator: "; ")
            out += "  \(TypeScriptNames.propertyKey(action.name)): { \(versions) };\n"
        }
        out += "}\n\nexport type ActionName = keyof ActionPayloads;\n\n"
        out += "export type BridgeErrorCode =\n" + ShimModel.errorCodes.map { "  | \"\($0)\"" }.joined(separator: "\n") + ";\n\n"
        out += runtimeTypes
        out += bridgeInterface(try payloadRequirement(plain, payloadLocations))
        out += functions
        return out
    }

    private func payloadRequirement(_ converter: TypeScriptSchemaConverter, _ locations: [String: SchemaLocation]) throws(CodegenError) -> [String: Bool] {
        var required: [String: Bool] = [:]
        for (name, location) in locations {
            let keywords = try converter.effectiveKeywords(file: location.file, pointer: location.pointer)
            required[name] = !(keywords["required"]?.arrayValue ?? []).isEmpty
        }
        return required
    }

    private func alias(_ name: String, _ rendered: TypeScriptSchemaConverter.Rendered) -> String {
        DocComment.lines(rendered.docs, indent: "").map { $0 + "\n" }.joined() + "export type \(name) = \(rendered.type);\n\n"
    }

    private func bridgeInterface(_ payloadRequired: [String: Bool]) -> String {
        var out = "/** What createBridge returns: one function per action (latest version) and per version. */\n"
        out += "export interface Bridge {\n"
        for action in model.actions {
            for version in action.versions {
                let payload = payloadName(action, version)
                let parameter = payloadRequired[payload] == true ? "payload: \(payload)" : "payload?: \(payload)"
                let route = contracts.route(named: version.route)
                var docs = [
                    "\(action.title): \(action.name) v\(version.version). The app opens route \(version.route) (\(version.pattern))"
                        + (route?.requiresAuth == true ? ", after login when logged out (pendingLogin)." : "."),
                    "Fails with TIMEOUT after \(version.timeoutMs) ms without a reply.",
                    version.fallback == .universalLink
                        ? "Outside the app, or in an app without it: opens its Universal Link and resolves with fallback: true."
                        : "Outside the app, or in an app without it: fails with UNAVAILABLE (no fallback).",
                ]
                docs.append(version.requiresId ? "Expects a reply: it cannot be sent as a notification." : "With { notify: true } it is sent without an id and resolves once posted.")
                var names = ["\(action.method)V\(version.version)"]
                if version.version == action.latest.version { names.insert(action.method, at: 0) }
                for name in names {
                    out += DocComment.lines(docs, indent: "  ").map { $0 + "\n" }.joined()
                    out += "  \(name)(\(parameter), options?: CallOptions): Promise<BridgeResult>;\n"
                    if !version.requiresId {
                        out += "  \(name)(payload: \(payload) | undefined, options: NotifyOptions): Promise<BridgeResult | undefined>;\n"
                    }
                }
            }
        }
        out += """
          /** Sends any action and version of the contract (the typed functions above call it). */
          send<A extends ActionName, V extends keyof ActionPayloads[A] & number>(
            action: A, version: V, payload: ActionPayloads[A][V], options?: CallOptions | NotifyOptions
          ): Promise<BridgeResult | undefined>;
          /** True when the app on this page can take the action (latest version by default). */
          isSupported(action: ActionName, version?: number): boolean;
          /** The capability manifest the app injected (window.\(model.capabilitiesGlobal)), or null. */
          capabilities(): Capabilities | null;
          /** The campaign fields read from the page URL when the bridge was created. */
          readonly campaign: Readonly<\(Self.campaignTypeName)>;
          /** Campaign values on the page that break the campaign schema: dropped, never trimmed. */
          readonly campaignWarnings: ReadonlyArray<CampaignWarning>;
          readonly stats: Readonly<BridgeStats>;
          /** The Universal Link an action opens outside the app (with this page's campaign unless campaign: false). */
          linkFor<A extends ActionName>(action: A, payload: ActionPayloads[A][keyof ActionPayloads[A]], options?: { version?: number; campaign?: boolean }): string;
          /** Rejects pending calls with UNAVAILABLE and removes window.\(model.receiveFunction). */
          dispose(): void;
        }


        """
        return out
    }

    private var runtimeTypes: String {
        """
        /** One JSON Schema error as the app reports it. */
        export interface BridgeErrorDetail {
          instanceLocation: string;
          keywordLocation?: string;
          keyword?: string;
          error?: string;
        }

        /** Why a call did not succeed. Every call settles: a result, a BridgeError, or TIMEOUT. */
        export declare class BridgeError extends Error {
          constructor(code: string, message?: string, details?: BridgeErrorDetail[]);
          readonly name: "BridgeError";
          /** An unknown code from the app becomes INTERNAL (its text is kept in the message). */
          readonly code: BridgeErrorCode;
          readonly details: BridgeErrorDetail[];
        }

        /** The app's answer to a call (its reply's result). */
        export interface BridgeResult {
          /** The route the app navigated to (routes.json name). */
          route: string;
          /** The destination's Universal Link, without campaign fields. */
          url: string;
          /** True when the destination needs login: the app shows login first and navigates after. */
          pendingLogin: boolean;
          /** True while the app is still starting (cold start): it navigates once it is ready. */
          waitingForReady?: boolean;
          /** True when the app accepted the call but is still preparing the screen (a slow fetch): it answered before the timeout and navigates when ready. */
          resolving?: boolean;
          /** Present when no app took the call and the page opened the Universal Link instead. */
          fallback?: true;
          /** The link the fallback opened (with the campaign fields). */
          openedURL?: string;
        }

        export interface CallOptions {
          /** Overrides the manifest's timeoutMs for this call. */
          timeoutMs?: number;
        }

        export interface NotifyOptions {
          /** Send without an id: no reply is expected and the call resolves once posted. */
          notify: true;
        }

        /** The capability manifest the app injects at document start (window.\(model.capabilitiesGlobal)). */
        export interface Capabilities {
          bridge: string;
          envelope: number;
          actions: { [action: string]: number[] };
          appVersion?: string;
        }

        export interface CampaignWarning {
          field: string;
          value: unknown;
          reason: string;
        }

        export interface BridgeStats {
          sent: number;
          notifications: number;
          replies: number;
          timeouts: number;
          /** Replies that arrived after their call timed out: dropped. */
          lateReplies: number;
          /** Replies for ids this bridge never sent (or forgot): dropped. */
          unmatchedReplies: number;
          malformedReplies: number;
          fallbacks: number;
        }

        export interface BridgeOptions {
          /** The global object (default: window). */
          window?: object;
          /** Where campaign fields are read (default: window.location.href at creation). */
          pageURL?: string;
          /** Campaign fields to use instead of the page URL (still checked against the campaign schema). */
          campaign?: Partial<Record<keyof \(Self.campaignTypeName), string>>;
          /** Opens a fallback Universal Link (default: window.location.assign). */
          navigate?: (url: string) => void;
          now?: () => Date;
          crypto?: { randomUUID?: () => string; getRandomValues?: (bytes: Uint8Array) => Uint8Array };
          setTimeout?: (callback: () => void, ms: number) => unknown;
          clearTimeout?: (handle: any) => void;
          /** A contract table other than CONTRACT (for tests). */
          contract?: ContractTable;
        }

        export interface ContractVersion {
          readonly schema: string;
          readonly route: string;
          readonly pattern: string;
          /** [name, JSON Pointer into the message, parameter type] */
          readonly parameters: ReadonlyArray<readonly [string, string, string]>;
          readonly query: ReadonlyArray<readonly [string, string, string]>;
          readonly timeoutMs: number;
          readonly fallback: "universalLink" | "none";
          readonly requiresId: boolean;
        }

        export interface ContractTable {
          readonly bridge: string;
          readonly envelope: number;
          readonly webBaseURL: string;
          readonly receiveFunction: string;
          readonly capabilitiesGlobal: string;
          readonly androidInterface: string;
          readonly errorCodes: ReadonlyArray<BridgeErrorCode>;
          readonly campaignFields: ReadonlyArray<{
            readonly name: string;
            readonly minLength: number | null;
            readonly maxLength: number | null;
            readonly pattern: string | null;
          }>;
          readonly actions: {
            readonly [action: string]: {
              readonly title: string;
              readonly method: string;
              readonly latest: number;
              readonly versions: { readonly [version: string]: ContractVersion };
            };
          };
        }


        """
    }

    private var functions: String {
        """
        export declare const CONTRACT: ContractTable;
        export declare const ERROR_CODES: ReadonlyArray<BridgeErrorCode>;
        export declare function createBridge(options?: BridgeOptions): Bridge;
        /** The Universal Link of an action's destination; with campaign, the campaign fields ride along. */
        export declare function buildUniversalLink<A extends ActionName>(
          action: A, version: number | undefined, payload: ActionPayloads[A][keyof ActionPayloads[A]],
          campaign?: \(Self.campaignTypeName) | null, contract?: ContractTable
        ): string;
        /** Percent-encodes once, keeping only RFC 3986 unreserved characters. */
        export declare function encodeComponent(text: string): string;

        """
    }
}

/// testing/fake-host.d.ts.
enum FakeHostDeclarations {
    static let text = """
    import type { BridgeEnvelope, BridgeErrorCode, BridgeErrorDetail, Capabilities } from "../bridge.js";

    /** A reply as the fake host sends it, without v and id. */
    export type FakeReply =
      | { ok: true; result: unknown }
      | { ok: false; error: { code: BridgeErrorCode | string; message: string; details?: BridgeErrorDetail[] } };

    /** A fixture file of contracts/fixtures (the parts the fake host reads). */
    export interface Fixture {
      description: string;
      message?: Record<string, unknown>;
      raw?: string;
      expect: {
        valid: boolean;
        code?: BridgeErrorCode;
        errors?: Array<{ instanceLocation: string; keyword?: string }>;
        navigation?: { route?: string; url?: string; pendingLogin?: boolean } | null;
        reply?: { ok?: boolean; result?: unknown } | null;
      };
    }

    export declare const NO_REPLY: { readonly noReply: true };

    export interface FakeHostOptions {
      /** The global object to install on (default: globalThis). */
      window?: object;
      /** promise: postMessage returns the reply; callback: window.<bridge>Receive(json); or an Android channel. */
      mode?: "promise" | "callback" | "androidListener" | "androidInterface";
      /** The capability manifest to inject; null injects none; default: every action and version. */
      capabilities?: Capabilities | null;
      appVersion?: string;
      /** In promise mode, resolve with JSON text instead of an object. */
      replyAsString?: boolean;
    }

    export interface FakeHost {
      readonly mode: string;
      readonly messages: BridgeEnvelope[];
      readonly replies: Array<{ id: string | null; reply: object; delivered: boolean }>;
      readonly mismatches: Array<{ fixture: string; differences: string[] }>;
      respondWith(responder: (envelope: BridgeEnvelope) => FakeReply | typeof NO_REPLY | undefined): FakeHost;
      replyNext(reply: FakeReply): FakeHost;
      failNext(code: BridgeErrorCode, message?: string, details?: BridgeErrorDetail[]): FakeHost;
      dropNext(): FakeHost;
      holdNext(reply?: FakeReply): FakeHost;
      expectFixture(fixture: Fixture): FakeHost;
      releaseHeld(): number;
      flush(): Promise<void>;
      defaultReply(envelope: BridgeEnvelope): FakeReply;
      uninstall(): void;
    }

    export declare function installFakeHost(options?: FakeHostOptions): FakeHost;
    export declare function fullCapabilities(appVersion?: string): Capabilities;
    export declare function replyForFixture(fixture: Fixture): FakeReply | typeof NO_REPLY;
    export declare function differencesFromFixture(expected: unknown, actual: unknown): string[];

    """
}
