// Types of links.js (loaded by the shim when a page first asks for a link or the campaign
// warnings, or a call falls back; the fake host imports it).
import type { CampaignWarning, ContractTable, ContractVersion } from "./bridge-runtime.js";

/** The link of a message (an envelope) to `entry`'s route, with `campaign` unless null. Throws INVALID_PARAMS. */
export declare function linkFromMessage(contract: ContractTable, entry: ContractVersion, message: object,
  campaign: { readonly [field: string]: string | undefined } | null): string;
/** The Universal Link of an action's destination for a payload; with `campaign`, the campaign fields ride along. */
export declare function buildUniversalLinkFor(
  contract: ContractTable, action: string, version: number | undefined, payload?: unknown,
  campaign?: { readonly [field: string]: string | undefined } | null
): string;
/** The warnings about a page's campaign (its URL, or the object given instead). */
export declare function campaignWarningsFor(contract: ContractTable, source: unknown): ReadonlyArray<CampaignWarning>;
