// Types of schema-runtime.js: what the generated validators return.

/** One error, in the form the app's reply details carry (JSON Schema "basic" output). */
export interface ValidationError {
  /** JSON Pointer into the message, e.g. "/payload/slug". */
  instanceLocation: string;
  /** JSON Pointer through the schema, via $ref, e.g. "/properties/payload/$ref/properties/slug/pattern". */
  keywordLocation: string;
  /** The keyword's place in its schema document, as an absolute URI. */
  absoluteKeywordLocation: string;
  keyword: string;
  /** One sentence quoting the offending value. */
  error: string;
}

export interface ValidationResult {
  valid: boolean;
  errors: ValidationError[];
  /** validate() only, for an invalid message: the reply code the app answers with. */
  code?: "INVALID_MESSAGE" | "UNKNOWN_ACTION" | "UNSUPPORTED_VERSION" | "INVALID_PARAMS";
  /** validate() only, for an invalid message: one sentence. */
  message?: string;
}

/** A compiled schema: (value, instance location, keyword location, errors or null) -> valid. */
export type CompiledSchema = (data: unknown, instanceLocation: string, keywordLocation: string, errors: ValidationError[] | null) => boolean;

export declare function checkWhole(check: CompiledSchema, message: unknown): ValidationResult;
export declare function validateMessage(
  envelope: CompiledSchema, actions: { readonly [action: string]: { readonly [version: string]: CompiledSchema } }, message: unknown
): ValidationResult;
export declare function hasOwn(object: object, key: string): boolean;
export declare function isObject(value: unknown): value is { [key: string]: unknown };
export declare function jsonType(value: unknown): string;
export declare function pointerToken(key: string): string;
export declare function codePointLength(text: string): number;
export declare function equal(left: unknown, right: unknown): boolean;
export declare function includes(list: ReadonlyArray<unknown>, value: unknown): boolean;
export declare function equalPair(items: ReadonlyArray<unknown>): [number, number] | null;
export declare function isMultipleOf(value: number, divisor: number): boolean;
export declare function report(
  errors: ValidationError[], instanceLocation: string, keywordLocation: string, absoluteKeywordLocation: string, keyword: string, error: string
): false;
export declare function quote(value: unknown): string;
export declare const FORMATS: { readonly [format: string]: (text: string) => boolean };
