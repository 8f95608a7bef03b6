// The fixture runner the kit ships (src/fixture-runner.mjs), bound to this repository's kit and to
// the example page URL of support.mjs, for the tests of js/test/.
import { CONTRACT, createBridge, encodeComponent } from "../bridge.js";
import { fixtureRunner } from "../src/fixture-runner.mjs";
import { installFakeHost } from "../testing/fake-host.js";
import { pageURLFor } from "./support.mjs";

export { expectedCode, expectedResult, messageShouldValidate } from "../src/fixture-runner.mjs";

const runner = fixtureRunner({ CONTRACT, createBridge, installFakeHost, encodeComponent }, pageURLFor);

/** Why the shim cannot produce this fixture's message from a page, or null when it can. */
export const reasonShimCannotBuild = runner.reasonShimCannotBuild;

/** Runs a fixture through the shim and the fake host: {envelope, differences, result, error, host, bridge, opened}. */
export const runFixtureThroughShim = runner.runFixtureThroughShim;
