// Types of validation.js (loaded by the shim only when a page validates; the fake host uses it).
import type { BridgeError, BridgeErrorCode, BridgeErrorDetail, ValidatorsModule } from "./bridge-runtime.js";

/** The app's error reply for a message the validators rejected. */
export declare function errorForVerdict(verdict: ReturnType<ValidatorsModule["validate"]>, action: string, version: number): {
  code: BridgeErrorCode; message: string; details: BridgeErrorDetail[];
};
/** The BridgeError the app would answer for `envelope`, or null when the validators accept it. */
export declare function refusalOf(validators: ValidatorsModule, envelope: unknown): BridgeError | null;
