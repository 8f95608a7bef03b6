// Types of bridge-runtime.js: the contract-free part of the shim. The generated bridge.d.ts
// fills these in with the types converted from the contracts' schemas.

import type { CampaignRules } from "./link-rules.js";

/** The closed set of reply error codes. */
export type BridgeErrorCode =
  | "INVALID_MESSAGE"
  | "UNKNOWN_ACTION"
  | "UNSUPPORTED_VERSION"
  | "INVALID_PARAMS"
  | "ORIGIN_REJECTED"
  | "DUPLICATE"
  | "NAVIGATION_FAILED"
  | "TIMEOUT"
  | "UNAVAILABLE"
  | "INTERNAL"
  /** The page's own code, never an app's: the call's signal was aborted. */
  | "ABORTED";

export declare const ERROR_CODES: ReadonlyArray<BridgeErrorCode>;

/**
 * One detail of an error: a JSON Schema error as the app reports it (instanceLocation,
 * keywordLocation, keyword, error), or for UNSUPPORTED_VERSION the versions the app takes.
 */
export interface BridgeErrorDetail {
  instanceLocation?: string;
  keywordLocation?: string;
  keyword?: string;
  error?: string;
  action?: string;
  supportedVersions?: number[];
}

/** Why a call did not succeed. Every call settles: a result, a BridgeError, or TIMEOUT. */
export declare class BridgeError extends Error {
  constructor(code: string, message?: string, details?: BridgeErrorDetail[]);
  readonly name: "BridgeError";
  /** An unknown code from the app becomes INTERNAL (its text is kept in the message). */
  readonly code: BridgeErrorCode;
  readonly details: BridgeErrorDetail[];
  /** UNSUPPORTED_VERSION: the versions of the action the app on this page takes ([] for none). */
  readonly supportedVersions?: number[];
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
  /** For a destination outside the app (open_directions): "app" when the map app opened, "fallback" when its web or App Store page did. */
  opened?: "app" | "fallback";
  /** The app that was opened, by the provider name routes.json gives it (e.g. mapsapp). */
  provider?: string;
  /** Present when no app took the call and the page opened the Universal Link instead. */
  fallback?: true;
  /** The link the fallback opened (with the campaign fields). */
  openedURL?: string;
  /** The call's request id, when the navigation has not ended yet (pendingLogin, waitingForReady, resolving): the navigation_completed event that tells how it ended names the same id. */
  requestId?: string;
}

export interface CallOptions {
  /** Overrides the manifest's timeoutMs for this call. */
  timeoutMs?: number;
  /**
   * Cancels the call: it settles at once with ABORTED; a reply that comes later is counted in
   * stats.lateReplies, never delivered. The app may still have navigated (it has the message).
   */
  signal?: AbortSignalLike;
}

/** What the shim reads of an AbortSignal (declared here so the types need no DOM library). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: "abort", listener: () => void): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

export interface NotifyOptions {
  /** Send without an id: no reply is expected and the call resolves once posted. */
  notify: true;
}

/**
 * The capability manifest: what the app injects at document start (window.<bridge>Capabilities)
 * and answers a capabilities request with. The Swift host (HostCapabilities) produces it.
 */
export interface Capabilities {
  bridge: string;
  envelope: number;
  /** The app build; absent for a development host that is no recorded build. */
  app?: { platform: "ios" | "android"; version: string };
  /** Each action the app takes, with its versions ascending. */
  actions: { [action: string]: number[] };
}

/** Payloads by version for bridge.offer: at least one version, each with its own payload type. */
export type OfferedPayloads<Payloads> = {
  [V in keyof Payloads]: { [K in V]: Payloads[K] } & { [K in Exclude<keyof Payloads, V>]?: Payloads[K] };
}[keyof Payloads];

/**
 * A campaign value on the page that was dropped or changed, and why, in the words `bridgectl
 * route` uses: `field` is the campaign field, or "url" for the page URL as a whole.
 */
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
  /**
   * Messages refused before they were sent: a string with a lone surrogate (always), or what the
   * validators rejected (validate option).
   */
  rejectedBeforeSending: number;
  /** Replies that arrived after their call timed out: dropped. */
  lateReplies: number;
  /** Replies for ids this bridge never sent (or forgot): dropped. */
  unmatchedReplies: number;
  malformedReplies: number;
  fallbacks: number;
  /** Calls the page aborted (CallOptions.signal). */
  aborted: number;
  /**
   * App events this bridge received that are well formed and known (the contract's, or
   * navigation_completed v1): given to its handlers, or counted in unhandledEvents. Every bridge
   * of the page counts each event.
   */
  events: number;
  /** Known events that came while this bridge had no handler for them: dropped, never queued for a later subscriber. */
  unhandledEvents: number;
  /** Well-formed events whose name and version neither the contract nor the built-in events have: dropped. */
  unknownEvents: number;
  /** Messages with an "event" and no "id" that are no event: v not 1, event not a string, version not a positive integer, or payload not an object. */
  malformedEvents: number;
  /** With validate on: events the validators rejected (or could not check): not given to the handlers. */
  invalidEvents: number;
  /** Handler calls that threw: the other handlers still ran; the error went to window.reportError where the page has it. */
  handlerErrors: number;
}

/** How a navigation ended, as the app's audit log names it (opened_<target> for a destination outside the app). */
export type NavigationOutcome =
  | "navigated" | "opened_app" | "opened_fallback" | `opened_${string}` | "failed" | "refused"
  | "cancelled_by_logout" | "cancelled" | "duplicate" | "replaced_while_pending";

/**
 * navigation_completed v1, which every host sends: a navigation a request started ended after the
 * request's reply (the reply said pendingLogin, waitingForReady or resolving).
 */
export interface NavigationCompletedPayload {
  /** The id of the request (the envelope's id) that started the navigation. */
  requestId: string;
  /** The route (routes.json name). */
  route: string;
  outcome: NavigationOutcome;
  /** The failure code, when there is one (failed, refused). */
  reason?: string;
}

/**
 * The app's events a page can subscribe to with bridge.on, by name: each one's payload type (the
 * union of its versions'). It holds the built-in events; a contract's own are added by declaration
 * merging (the generated bridge.d.ts, or a page:
 * `declare module "<kit>/src/bridge-runtime.js" { interface BridgeEvents { coupon_issued: CouponIssued } }`),
 * or passed as BridgeCore's second type parameter.
 */
export interface BridgeEvents {
  navigation_completed: NavigationCompletedPayload;
}

/** What a handler gets besides the payload: the event's name and the version the app sent. */
export interface EventMeta<E extends string = string> {
  event: E;
  version: number;
}

/** A validators module (the generated validators.js): what createBridge({ validate }) and the fake host call. */
export interface ValidatorsModule {
  validate(message: unknown): {
    valid: boolean;
    errors: Array<{ instanceLocation: string; keywordLocation: string; absoluteKeywordLocation?: string; keyword: string; error: string }>;
    code?: BridgeErrorCode;
    message?: string;
  };
  /**
   * The checks of app events, by "event:NAME@N", each of the whole event message
   * ({v, event, version, payload}). With validate on, an event it rejects is counted in
   * stats.invalidEvents and not delivered; an event without a check is delivered.
   */
  readonly eventValidators?: { readonly [key: string]: (message: unknown) => { valid: boolean } };
}

/** Options of createBridge; `CampaignField` names the campaign schema's fields. */
export interface BridgeOptionsOf<CampaignField extends PropertyKey = string> {
  /** The global object (default: window). */
  window?: object;
  /** Where campaign fields are read (default: window.location.href at creation). */
  pageURL?: string;
  /** Campaign fields to use instead of the page URL (still checked against the campaign schema). */
  campaign?: Partial<Record<CampaignField, string>>;
  /** Opens a fallback Universal Link (default: window.location.assign). */
  navigate?: (url: string) => void;
  now?: () => Date;
  crypto?: { randomUUID?: () => string; getRandomValues?: (bytes: Uint8Array) => Uint8Array };
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: any) => void;
  /** A contract table other than the generated CONTRACT (for tests). */
  contract?: ContractTable;
  /**
   * Check each message with the contract's validators before posting it: a message the app would
   * reject fails with the app's code (INVALID_PARAMS...) and details, and is not sent. true loads
   * validators.js when the first message is sent (a page without it never loads it); or pass the
   * module you imported. Default: no validation.
   */
  validate?: boolean | ValidatorsModule;
  /** How validate: true loads validators.js (bridge.js sets it). */
  loadValidators?: () => Promise<ValidatorsModule>;
}

/** A version of an action in the contract table: answered by a route, or by the app's own code. */
export type ContractVersion = RouteContractVersion | CustomContractVersion;

/** A version the app answers with a result of its own code ("handler": "custom"): no route, no link. */
export interface CustomContractVersion {
  readonly schema: string;
  readonly handler: "custom";
  /** The result schema file: the reply's result matches it. */
  readonly result: string;
  readonly timeoutMs: number;
  readonly fallback: "none";
  readonly requiresId: boolean;
}

/** A version the app answers by navigating to a route. */
export interface RouteContractVersion {
  readonly schema: string;
  readonly handler?: undefined;
  readonly route: string;
  readonly pattern: string;
  /** [name, JSON Pointer into the message, parameter type] */
  readonly parameters: ReadonlyArray<readonly [string, string, string]>;
  readonly query: ReadonlyArray<readonly [string, string, string]>;
  readonly timeoutMs: number;
  readonly fallback: "universalLink" | "none";
  readonly requiresId: boolean;
  /** A destination outside the app: the query field naming the provider, each provider's app scheme and whether it has a fallback. */
  readonly external?: {
    readonly providerField: string;
    readonly providers: { readonly [provider: string]: { readonly app: string; readonly fallback: boolean } };
  };
}

/** The contract facts the runtime reads: bridge.js's CONTRACT, or a hand-made table in tests. */
export interface ContractTable {
  readonly bridge: string;
  readonly envelope: number;
  readonly webBaseURL: string;
  readonly receiveFunction: string;
  readonly capabilitiesGlobal: string;
  readonly androidInterface: string;
  /** The contract's campaign rules (see link-rules.d.ts). */
  readonly campaignRules: CampaignRules;
  readonly actions: {
    readonly [action: string]: {
      readonly title: string;
      readonly method: string;
      readonly latest: number;
      readonly versions: { readonly [version: string]: ContractVersion };
    };
  };
  /** The contract's own app events (absent: only the built-in navigation_completed v1 is known). */
  readonly events?: {
    readonly [event: string]: { readonly versions: { readonly [version: string]: true }; readonly latest: number };
  };
}

/**
 * What every bridge has, whatever the contract (the generated Bridge adds the typed functions).
 * `Events`: the events bridge.on takes, by name, with their payload types.
 */
export interface BridgeCore<CampaignField extends PropertyKey = string, Events = BridgeEvents> {
  /**
   * True when the app on this page takes that version of the action (latest by default): the
   * manifest says so, or the app gave none and is trusted. False outside the app.
   */
  supports(action: string, version?: number): boolean;
  /** The same as supports (its older name). */
  isSupported(action: string, version?: number): boolean;
  /**
   * The capability manifest the app injected at document start, or answered the handshake with
   * (the capabilities request the shim sends before the first call when nothing was injected); null before that.
   */
  capabilities(): Capabilities | null;
  /** The campaign fields read from the page URL when the bridge was created. */
  readonly campaign: Readonly<Partial<Record<CampaignField, string>>>;
  /**
   * Campaign values on the page that break the campaign schema (dropped, never trimmed), and what
   * else was noticed about them; loads links.js on first use.
   */
  campaignWarnings(): Promise<ReadonlyArray<CampaignWarning>>;
  readonly stats: Readonly<BridgeStats>;
  /**
   * Subscribes to an app event; returns the function that ends this subscription (calling it
   * again does nothing). Handlers run asynchronously, in the order the events came (the shim loads
   * src/events.js when the page first subscribes); several may listen to one event. An event that
   * comes while the event has no handler is counted (stats.unhandledEvents) and dropped, not kept
   * for a later subscriber. A handler that throws is counted (stats.handlerErrors) and reported
   * with window.reportError where the page has it; it never stops the other handlers or the
   * bridge. With validate on, an event the validators reject is not delivered (stats.invalidEvents).
   */
  on<E extends keyof Events & string>(event: E, handler: (payload: Events[E], meta: EventMeta<E>) => void): () => void;
  /** Rejects pending calls with UNAVAILABLE and removes window.<bridge>Receive. */
  dispose(): void;
}

/** The bridge of a contract table known only at run time: untyped send and action functions and events. */
export interface RuntimeBridge extends BridgeCore<string, BridgeEvents & { readonly [event: string]: { readonly [field: string]: unknown } }> {
  send(action: string, version: number | undefined, payload?: unknown, options?: CallOptions | NotifyOptions): Promise<BridgeResult | undefined>;
  offer(action: string, payloads: { [version: number]: unknown }, options?: CallOptions | NotifyOptions): Promise<BridgeResult | undefined>;
  linkFor(action: string, payload?: unknown, options?: { version?: number; campaign?: boolean }): Promise<string>;
  readonly [actionFunction: string]: unknown;
}

export declare function createBridgeFor(contract: ContractTable, options?: BridgeOptionsOf): RuntimeBridge;
/** Percent-encodes once, keeping only RFC 3986 unreserved characters. */
export declare function encodeComponent(text: string): string;
export declare function deepFreeze<T>(value: T): T;
/** createBridge and buildUniversalLink bound to a contract table (what bridge.js exports). */
export declare function bindContract(contract: ContractTable, loadValidators?: () => Promise<ValidatorsModule>): {
  createBridge(options?: BridgeOptionsOf): RuntimeBridge;
  buildUniversalLink(action: string, version: number | undefined, payload?: unknown,
    campaign?: { readonly [field: string]: string | undefined } | null, contract?: ContractTable): Promise<string>;
};
