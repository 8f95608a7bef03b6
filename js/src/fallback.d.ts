// Types of fallback.js (loaded by the shim only when a call falls back to the Universal Link).
import type { BridgeResult, ContractTable, ContractVersion } from "./bridge-runtime.js";

export declare function openFallback(contract: ContractTable, found: { action: string; version: number; contract: ContractVersion },
  envelope: Record<string, unknown>, reason: string, inApp: boolean, navigate: ((url: string) => void) | undefined, win: object): BridgeResult;
