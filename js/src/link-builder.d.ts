// Types of link-builder.js: a link built exactly as `bridgectl link build` builds it.
import type { CampaignRules } from "./link-rules.js";

export interface LinkWarning {
  /** "path.slug", "query.memo", "campaign.variant". */
  field: string;
  message: string;
}

/** The routes a link builder knows (the catalog's table). */
export interface LinkTable {
  readonly webBaseURL: string;
  readonly customScheme: string;
  readonly routes: ReadonlyArray<{
    readonly name: string;
    readonly pattern: string;
    readonly parameters: { readonly [name: string]: string };
    /** [name, type] in declaration order. */
    readonly query: ReadonlyArray<readonly [string, string]>;
  }>;
  readonly campaignRules: CampaignRules;
}

export declare class LinkError extends Error {
  constructor(kind: "usage" | "invalid", message: string);
  readonly kind: "usage" | "invalid";
}
export declare function tidyValue(value: string, field: string, strict?: boolean): { value: string; warnings: LinkWarning[] };
export declare function buildLink(
  table: LinkTable, route: string, parameters: { readonly [name: string]: string },
  query: { readonly [name: string]: ReadonlyArray<string> }, campaign: { readonly [field: string]: string } | null,
  options?: { scheme?: "https" | "custom"; strict?: boolean }
): { url: string; warnings: LinkWarning[] };
