// Types of link-rules.js: the link rules the web side shares with the app (percent-encoding,
// parameter types, campaign rules, reading a link's campaign with the app's warnings).

/** One run of a campaign pattern: between min and max characters, each in one of the ranges. */
export interface CampaignPatternPiece {
  /** Inclusive code point ranges, [low, high]. */
  readonly ranges: ReadonlyArray<readonly [number, number]>;
  readonly min: number;
  readonly max: number | null;
  /** The set in plain words: "A-Z a-z 0-9 _ . -". */
  readonly allowed: string;
}

/** One campaign field's rule, derived by bridgectl from the contract's campaign schema. */
export interface CampaignFieldRule {
  readonly name: string;
  /** In characters (code points). */
  readonly minLength: number;
  readonly maxLength: number | null;
  /** The rule in plain words: "1 to 64 characters: one of A-Z a-z 0-9, then up to 63 of A-Z a-z 0-9 _ . -". */
  readonly summary: string;
  readonly pattern: ReadonlyArray<CampaignPatternPiece> | null;
}

export interface CampaignRules {
  /** A campaign field the rules do not list is not a campaign field (additionalProperties: false). */
  readonly closed: boolean;
  readonly fields: ReadonlyArray<CampaignFieldRule>;
}

export interface CampaignReadWarning {
  /** The campaign field, or "url". */
  field: string;
  value: unknown;
  reason: string;
}

export declare function encodeComponent(text: string): string;
export declare function looksEncoded(text: string): boolean;
export declare const PARAMETER_RULES: { readonly [type: string]: (text: string) => boolean };
export declare function trimmed(text: string): { text: string; removed: boolean };
export declare function composed(text: string): string;
export declare function firstControl(text: string): number;
export declare function codePoint(value: number): string;
export declare function described(value: number): string;
export declare function shown(text: string): string;
export declare function campaignViolation(rules: CampaignRules, name: string, value: string): { rule: string | null; problem: string } | null;
export declare function refusal(violation: { rule: string | null; problem: string }, value: string): string;
export declare function drop(violation: { rule: string | null; problem: string }, value: string): string;
export declare function isCampaignKey(name: string): boolean;
export declare function readCampaignFromURL(rules: CampaignRules, href: string): {
  campaign: Readonly<Record<string, string>>; warnings: ReadonlyArray<CampaignReadWarning>;
};
export declare function readCampaignFromObject(rules: CampaignRules, given: { readonly [field: string]: unknown }): {
  campaign: Readonly<Record<string, string>>; warnings: ReadonlyArray<CampaignReadWarning>;
};
export declare const WHITESPACE_REMOVED: string;
export declare const COMPOSED_FORM: string;
export declare const CAMPAIGN_ORDER: ReadonlyArray<string>;
export declare function controlWarning(codePoint: number): string;
export declare function plainText(value: string): string | null;
