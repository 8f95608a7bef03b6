// A Node module loader that appends every URL it resolves to $RESOLVE_LOG, one per line, so a
// test can see which modules a page really loads (node --experimental-loader this file).
import { appendFileSync } from "node:fs";

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (process.env.RESOLVE_LOG) appendFileSync(process.env.RESOLVE_LOG, resolved.url + "\n");
  return resolved;
}
