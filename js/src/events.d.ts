// Types of events.js (loaded by the shim when a page first subscribes to an app event, or one first arrives).
import type { BridgeStats, ContractTable, ValidatorsModule } from "./bridge-runtime.js";

/** The events every host sends, whatever the contract: navigation_completed v1. */
export declare const BUILT_IN_EVENTS: NonNullable<ContractTable["events"]>;

/** What receiveEvent reads of a bridge. */
export interface EventScope {
  contract: ContractTable;
  stats: BridgeStats;
  /** The subscriptions: event name -> handlers. */
  handlers: Map<string, ReadonlyArray<(payload: object, meta: { event: string; version: number }) => void>>;
  /** createBridge's validate: null (no validation), the validators module, or a promise of it. */
  validators: () => ValidatorsModule | Promise<ValidatorsModule> | null;
  /** The page's global object (its reportError reports handler errors). */
  win: object;
}

/** Checks and counts one event for one bridge and runs its handlers (after the validators, when on). */
export declare function receiveEvent(scope: EventScope, message: { [key: string]: unknown }): Promise<void> | void;
