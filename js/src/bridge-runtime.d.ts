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
  /** Messages the validators rejected before they were sent (validate option). */
  rejectedBeforeSending: number;
  /** Replies that arrived after their call timed out: dropped. */
  lateReplies: number;
  /** Replies for ids this bridge never sent (or forgot): dropped. */
  unmatchedReplies: number;
  malformedReplies: number;
  fallbacks: number;
  /** Calls the page aborted (CallOptions.signal). */
  aborted: number;
}

/** A validators module (the generated validators.js): what createBridge({ validate }) and the fake host call. */
export interface ValidatorsModule {
  validate(message: unknown): {
    valid: boolean;
    errors: Array<{ instanceLocation: string; keywordLocation: string; absoluteKeywordLocation?: string; keyword: string; error: string }>;
    code?: BridgeErrorCode;
    message?: string;
  };
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
}

/** What every bridge has, whatever the contract (the generated Bridge adds the typed functions). */
export interface BridgeCore<CampaignField extends PropertyKey = string> {
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
  /** Rejects pending calls with UNAVAILABLE and removes window.<bridge>Receive. */
  dispose(): void;
}

/** The bridge of a contract table known only at run time: untyped send and action functions. */
export interface RuntimeBridge extends BridgeCore {
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
