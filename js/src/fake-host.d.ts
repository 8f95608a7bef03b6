// Types of fake-host.js. The generated testing/fake-host.d.ts names the contract's envelope type.
import type { BridgeErrorCode, BridgeErrorDetail, Capabilities, ContractTable, ValidatorsModule } from "./bridge-runtime.js";

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

/** An app build of releases.json, as testing/releases.js lists it. */
export interface AppRelease {
  readonly platform: "ios" | "android";
  readonly version: string;
  readonly status: "supported" | "support-ended";
  /** Percent of sessions, when known. */
  readonly share: number | null;
  readonly actions: { readonly [action: string]: ReadonlyArray<number> };
  /** The event versions it sends its pages; absent for a build recorded before events existed (it sends none). */
  readonly events?: { readonly [event: string]: ReadonlyArray<number> };
}

/** A page-usage file for bridgectl can-i-deploy: each call with the versions the page can send, highest first. */
export interface PageUsage {
  page: string;
  calls: Array<{ action: string; versions: number[] }>;
}

export interface FakeHostOptions {
  /** The global object to install on (default: globalThis). */
  window?: object;
  /** promise: postMessage returns the reply; callback: window.<bridge>Receive(json); or an Android channel. */
  mode?: "promise" | "callback" | "androidListener" | "androidInterface";
  /** Act as this app build of releases.json ("ios@5.12.0"): its manifest and exactly its action versions. */
  release?: string;
  /** The builds release names (testing/fake-host.js passes releases.json's). */
  releases?: ReadonlyArray<AppRelease>;
  /**
   * The capability manifest instead of a release; null: an app that predates manifests (none
   * injected, the capabilities request gets UNKNOWN_ACTION). Default: every action and version.
   */
  capabilities?: Capabilities | null;
  /** false: no manifest at document start; the page learns it with the capabilities request. */
  inject?: boolean;
  /** The page's name in the usage file (default: the window's path, e.g. event/new-user-promo). */
  page?: string;
  /** In promise mode, resolve with JSON text instead of an object. */
  replyAsString?: boolean;
  /** The validators the host checks each message with (testing/fake-host.js passes the contract's). */
  validators?: ValidatorsModule;
  /** false: answer without validating (default: validate, as the app does). */
  validate?: boolean;
  /**
   * The default results of custom actions by action and version ({ share: { 1: {...} } }):
   * testing/fake-host.js passes each result schema's first example. Stub one call with
   * replyNext({ ok: true, result }) or every call with respondWith.
   */
  exampleResults?: { readonly [action: string]: { readonly [version: number]: unknown } };
  /** Apps installed on the simulated device, by URL scheme (["mapsapp"]): a destination outside the app opens its app, else its fallback. */
  installed?: string[];
  /** false: nobody is logged in; a destination answers pendingLogin: true and waits for completeLogin(). */
  loggedIn?: boolean;
  /** true: the app is cold starting; a destination answers waitingForReady: true and waits for ready(). */
  coldStart?: boolean;
  /** A slow app: each reply comes this many ms later (on options.setTimeout). */
  delayMs?: number;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  /** The clock of the double-tap window, in ms (default Date.now): a test moves it. */
  now?: () => number;
  /** A second identical tap inside this window answers DUPLICATE (testing/fake-host.js: the manifest's limits.duplicateWindowMs). */
  duplicateWindowMs?: number;
  /** false: this host records no calls in the usage file (for negative tests). */
  recordUsage?: boolean;
}

/** The fake host; `Envelope` is the contract's message type. */
export interface FakeHostOf<Envelope = Record<string, unknown>> {
  readonly mode: string;
  /** Every message received, parsed; null (despite the type) for text the app could not read. */
  readonly messages: Envelope[];
  readonly replies: Array<{ id: string | null; reply: object; delivered: boolean }>;
  readonly mismatches: Array<{ fixture: string; differences: string[] }>;
  /** Messages the validators rejected, as the app would. */
  readonly rejected: Array<{ message: Envelope; code: BridgeErrorCode; errors: BridgeErrorDetail[] }>;
  /** The manifest this host gives the page (null: none). */
  readonly capabilities: Capabilities | null;
  /** Every distinct call the page made, with the versions it offered (highest first). */
  readonly calls: ReadonlyArray<{ action: string; versions: number[] }>;
  /** The usage file's content for bridgectl can-i-deploy. */
  usage(options?: { page?: string }): PageUsage;
  /** Writes the usage file (Node only; temporary file then rename); merge: true adds to the calls already there. */
  writeUsage(path: string, options?: { page?: string; merge?: boolean }): Promise<PageUsage>;
  /** Puts the host on a page (default: options.window, else globalThis). */
  install(window?: object): FakeHostOf<Envelope>;
  respondWith(responder: (envelope: Envelope) => FakeReply | typeof NO_REPLY | undefined): FakeHostOf<Envelope>;
  replyNext(reply: FakeReply): FakeHostOf<Envelope>;
  failNext(code: BridgeErrorCode, message?: string, details?: BridgeErrorDetail[]): FakeHostOf<Envelope>;
  dropNext(): FakeHostOf<Envelope>;
  holdNext(reply?: FakeReply): FakeHostOf<Envelope>;
  expectFixture(fixture: Fixture): FakeHostOf<Envelope>;
  releaseHeld(): number;
  /** The apps installed on the simulated device, by URL scheme. */
  setInstalled(schemes: string[]): FakeHostOf<Envelope>;
  /** Resolves once the replies scheduled so far were delivered and the events sent so far reached the handlers. */
  flush(): Promise<void>;
  defaultReply(envelope: Envelope): FakeReply;
  uninstall(): void;
  /** What the app did with each destination it accepted. */
  readonly navigations: Array<{ route: string; url: string; outcome: "navigated" | "cancelled" }>;
  /** Every event sent to the page, in order (by emit, and navigation_completed by completeLogin, ready and logout). */
  readonly events: ReadonlyArray<{ v: 1; event: string; version: number; payload: object }>;
  /**
   * Sends the page an app event {v: 1, event, version, payload} on the mode's channel, as the app
   * does (any name and version: a test may send one the contract lacks). The bridge's handlers run
   * asynchronously: await flush(). The host sends navigation_completed itself when a destination
   * whose reply said pendingLogin or waitingForReady ends: navigated (completeLogin, ready) or
   * cancelled_by_logout (logout), with the request's id.
   */
  emit(event: string, version: number, payload?: object): FakeHostOf<Envelope>;
  completeLogin(): FakeHostOf<Envelope>;
  logout(): FakeHostOf<Envelope>;
  ready(): FakeHostOf<Envelope>;
}

export declare function createFakeHostFor(contract: ContractTable, options?: FakeHostOptions): FakeHostOf;
export declare function installFakeHostFor(contract: ContractTable, options?: FakeHostOptions): FakeHostOf;
export declare function fullCapabilitiesFor(contract: ContractTable, app?: { platform: "ios" | "android"; version: string }): Capabilities;
export declare function releaseCapabilitiesFor(contract: ContractTable, releases: ReadonlyArray<AppRelease>, release: string): Capabilities;
export declare function replyForFixture(fixture: Fixture): FakeReply | typeof NO_REPLY;
export declare function differencesFromFixture(expected: unknown, actual: unknown): string[];
/** The fake host bound to a contract table, its validators and releases (what testing/fake-host.js exports). */
export declare function bindFakeHost(
  contract: ContractTable, validators?: ValidatorsModule, releases?: ReadonlyArray<AppRelease>,
  hostDefaults?: Pick<FakeHostOptions, "duplicateWindowMs" | "exampleResults">
): {
  createFakeHost(options?: FakeHostOptions): FakeHostOf;
  installFakeHost(options?: FakeHostOptions): FakeHostOf;
  fullCapabilities(app?: { platform: "ios" | "android"; version: string }): Capabilities;
  releaseCapabilities(release: string): Capabilities;
};
