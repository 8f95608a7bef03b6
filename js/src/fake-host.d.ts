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
  /** The validators the host checks each message with (testing/fake-host.js passes the contract's). */
  validators?: ValidatorsModule;
  /** false: answer without validating (default: validate, as the app does). */
  validate?: boolean;
  /** Apps installed on the simulated device, by URL scheme (["kakaomap"]): a destination outside the app opens its app, else its fallback. */
  installed?: string[];
}

/** The fake host; `Envelope` is the contract's message type. */
export interface FakeHostOf<Envelope = Record<string, unknown>> {
  readonly mode: string;
  readonly messages: Envelope[];
  readonly replies: Array<{ id: string | null; reply: object; delivered: boolean }>;
  readonly mismatches: Array<{ fixture: string; differences: string[] }>;
  /** Messages the validators rejected, as the app would. */
  readonly rejected: Array<{ message: Envelope; code: BridgeErrorCode; errors: BridgeErrorDetail[] }>;
  respondWith(responder: (envelope: Envelope) => FakeReply | typeof NO_REPLY | undefined): FakeHostOf<Envelope>;
  replyNext(reply: FakeReply): FakeHostOf<Envelope>;
  failNext(code: BridgeErrorCode, message?: string, details?: BridgeErrorDetail[]): FakeHostOf<Envelope>;
  dropNext(): FakeHostOf<Envelope>;
  holdNext(reply?: FakeReply): FakeHostOf<Envelope>;
  expectFixture(fixture: Fixture): FakeHostOf<Envelope>;
  releaseHeld(): number;
  /** The apps installed on the simulated device, by URL scheme. */
  setInstalled(schemes: string[]): FakeHostOf<Envelope>;
  flush(): Promise<void>;
  defaultReply(envelope: Envelope): FakeReply;
  uninstall(): void;
}

export declare function installFakeHostFor(contract: ContractTable, options?: FakeHostOptions): FakeHostOf;
export declare function fullCapabilitiesFor(contract: ContractTable, appVersion?: string): Capabilities;
export declare function replyForFixture(fixture: Fixture): FakeReply | typeof NO_REPLY;
export declare function differencesFromFixture(expected: unknown, actual: unknown): string[];
/** installFakeHost and fullCapabilities bound to a contract table (what testing/fake-host.js exports). */
export declare function bindFakeHost(contract: ContractTable, validators?: ValidatorsModule): {
  installFakeHost(options?: FakeHostOptions): FakeHostOf;
  fullCapabilities(appVersion?: string): Capabilities;
};
