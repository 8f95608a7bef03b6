/// testing/fixtures.test.mjs: the kit's fixture runner, bound to the kit. The web team points it
/// at its own contracts folder and runs it with Node's test runner:
/// `BRIDGE_CONTRACTS=contracts node --test <kit>/testing/`. One test per fixture: a valid one must
/// come out of the shim as its message and resolve with its result, an invalid one must be refused
/// with its code; an event fixture goes through the fake host's emit to a page that validates
/// events (the kit's validators module). The runner itself is contract-free (src/fixture-runner.mjs); this file only binds it.
enum FixtureRunnerEmitter {
    static func script(header: Header) -> String {
        header.comment(for: "testing/fixtures.test.mjs") + """

            // Runs the fixtures of the contracts folder BRIDGE_CONTRACTS names (relative to the working
            // directory) through this kit's shim and fake host:
            //   BRIDGE_CONTRACTS=contracts node --test js/testing/
            import { test } from "node:test";
            import { CONTRACT, buildUniversalLink, createBridge, encodeComponent } from "../bridge.js";
            import { registerFixtureTests } from "../src/fixture-runner.mjs";
            import * as validators from "../validators.js";
            import { installFakeHost } from "./fake-host.js";

            registerFixtureTests({ CONTRACT, buildUniversalLink, createBridge, installFakeHost, encodeComponent, validators }, test, process.env);

            """
    }
}
