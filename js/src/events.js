// events.js: the app's events (app-to-page messages, {v: 1, event, version, payload}) for one
// bridge: each is checked, counted in the bridge's stats and given to the handlers of its name.
// bridge-runtime.js keeps the subscriptions and loads this module when the page first subscribes
// or an event first arrives. Plain ES2017.

import { own } from "./errors.js";

/** The events every host sends, whatever the contract: a table as contract.events lists its own. */
export const BUILT_IN_EVENTS = Object.freeze({ navigation_completed: Object.freeze({ versions: Object.freeze({ 1: true }), latest: 1 }) });

/** {v: 1, event: a string, version: a positive integer, payload: an object}. */
function wellFormed(message) {
  const payload = message.payload;
  return message.v === 1 && typeof message.event === "string" && Number.isInteger(message.version) && message.version > 0
    && payload !== null && typeof payload === "object" && !Array.isArray(payload);
}

/** Whether the contract (contract.events) or the built-in table has that version of the event. */
const known = (contract, name, version) => [contract.events, BUILT_IN_EVENTS].some((table) => own(own(own(table, name), "versions"), version));

/** Whether a validators module accepts the event: its check under "event:NAME@N" (of the whole message), if it has one. */
function accepted(validators, message) {
  const check = own(validators.eventValidators, "event:" + message.event + "@" + message.version);
  return typeof check !== "function" || check(message).valid === true;
}

/**
 * Runs the handlers subscribed to the event now, each on its own: one that throws is counted in
 * stats.handlerErrors and its error goes to window.reportError when the page has it (the console
 * and the page's error listeners, without throwing), never to the other handlers or to the app's call.
 */
function run(scope, message) {
  (scope.handlers.get(message.event) || []).forEach((handler) => {
    try {
      handler(message.payload, { event: message.event, version: message.version });
    } catch (error) {
      scope.stats.handlerErrors += 1;
      if (typeof scope.win.reportError === "function") scope.win.reportError(error);
    }
  });
}

/**
 * One event for one bridge. scope: {contract, stats, handlers (name -> functions), validators
 * (createBridge's validate: () => null, the module or a promise of it), win}. Malformed, unknown
 * and unsubscribed events are counted and dropped; with validation on, an event the validators
 * reject (or cannot check: they did not load, or their check threw) is counted invalid and not delivered.
 */
export function receiveEvent(scope, message) {
  const stats = scope.stats;
  if (!wellFormed(message)) {
    stats.malformedEvents += 1;
    return;
  }
  if (!known(scope.contract, message.event, message.version)) {
    stats.unknownEvents += 1;
    return;
  }
  stats.events += 1;
  if (!(scope.handlers.get(message.event) || []).length) {
    stats.unhandledEvents += 1;
    return;
  }
  const checking = scope.validators();
  if (checking === null) return run(scope, message);
  // A check that throws counts as a rejection (run itself never throws: each handler is guarded).
  return Promise.resolve(checking).then((validators) => {
    if (accepted(validators, message)) run(scope, message);
    else stats.invalidEvents += 1;
  }).catch(() => { stats.invalidEvents += 1; });
}
