// Runs a contract fixture through the generated shim and the fake host, as a web page would
// produce it: the action function called with the fixture's payload, on a page whose URL carries
// the fixture's campaign fields.
import { CONTRACT, createBridge } from "../bridge.js";
import { differencesFromFixture, installFakeHost } from "../testing/fake-host.js";
import { actionFunction, fakeWindow, pageURLFor } from "./support.mjs";

const SCHEMA_LEVEL_CODES = ["INVALID_MESSAGE", "INVALID_PARAMS", "UNKNOWN_ACTION", "UNSUPPORTED_VERSION"];

/** The code an invalid fixture expects (INVALID_PARAMS when it does not say). */
export function expectedCode(fixture) {
  return fixture.expect.valid ? null : fixture.expect.code || "INVALID_PARAMS";
}

/**
 * Whether the message itself breaks the contract (what `bridgectl validate` decides), as opposed
 * to a message that is fine but refused for where it came from (ORIGIN_REJECTED...).
 */
export function messageShouldValidate(fixture) {
  return fixture.expect.valid || SCHEMA_LEVEL_CODES.indexOf(expectedCode(fixture)) < 0;
}

/**
 * Why the shim cannot produce this fixture's message from a page, or null when it can. Every
 * reason is computed from the fixture, not listed by file name.
 */
export function reasonShimCannotBuild(fixture) {
  if (fixture.raw !== undefined) return "a raw body (e.g. duplicate keys) that a JavaScript object cannot hold";
  const message = fixture.message;
  if (message === null || typeof message !== "object" || Array.isArray(message)) return "the message is not an object";
  const extra = Object.keys(message).filter((key) => ["v", "id", "action", "version", "payload", "campaign", "sentAt"].indexOf(key) < 0);
  if (extra.length) return `envelope members the shim never writes: ${extra.join(", ")}`;
  if (message.v !== CONTRACT.envelope) return `envelope version ${JSON.stringify(message.v)}; the shim always writes ${CONTRACT.envelope}`;
  if (!("payload" in message)) return "no payload; the shim always sends one ({} by default)";
  if (!("sentAt" in message)) return "no sentAt; the shim always stamps one";
  if (!(message.action in CONTRACT.actions) && expectedCode(fixture) !== "UNKNOWN_ACTION") {
    return `action ${JSON.stringify(message.action)} is not in the contract: the shim refuses it before sending (UNKNOWN_ACTION), the app answers ${expectedCode(fixture)}`;
  }
  if (message.campaign !== undefined) {
    const probe = createBridge({ window: {}, pageURL: pageURLFor(message.campaign), navigate() {} });
    const kept = probe.campaign;
    const lost = Object.keys(message.campaign).filter((name) => kept[name] !== message.campaign[name]);
    if (lost.length) {
      const reasons = lost.map((name) => {
        const warning = probe.campaignWarnings.find((item) => item.field === name);
        return `${name} (${warning ? warning.reason : "not a campaign field"})`;
      });
      return `campaign fields the shim drops from a page URL: ${reasons.join(", ")}`;
    }
  }
  return null;
}

/**
 * Calls the action function for the fixture's action and version (bridge.send for an action or
 * version the contract does not have) with the fixture's payload; the fake host compares what
 * arrives with the fixture and answers as the fixture expects.
 * Returns {envelope, differences, result, error, host, bridge}.
 */
export async function runFixtureThroughShim(fixture, options = {}) {
  const message = fixture.message;
  const win = fakeWindow(pageURLFor(message.campaign));
  const host = installFakeHost({ window: win, mode: options.mode || "promise" });
  if (!options.defaultReply) host.expectFixture(fixture);
  const bridge = createBridge({ window: win });
  const callOptions = "id" in message ? undefined : { notify: true };
  const typed = actionFunction(bridge, message.action, message.version);
  const call = typed ? typed(message.payload, callOptions) : bridge.send(message.action, message.version, message.payload, callOptions);
  let result;
  let error;
  try {
    result = await call;
  } catch (caught) {
    error = caught;
  }
  await host.flush();
  const envelope = host.messages[0];
  return {
    envelope,
    differences: envelope === undefined ? null : differencesFromFixture(message, envelope),
    result,
    error,
    host,
    bridge,
    opened: win.opened,
  };
}
