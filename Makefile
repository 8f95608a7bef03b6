# bridgekit: the two set-up commands are `make demo` and `make test` (see README).
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
SWIFT ?= swift
BRIDGECTL := .build/debug/bridgectl
C_SOURCES := $(wildcard Sources/CSchemaCheck/*.c)
C_FLAGS := -std=c11 -O2 -Wall -Wextra -Werror -ISources/CSchemaCheck/include -ISources/CSchemaCheck -DPCRE2_CODE_UNIT_WIDTH=8

.PHONY: adopter-app release deps js-deps build demo test test-targets catalog-test test-c test-swift test-js test-stdio c-warnings layers example lint check verify generate-check compat record-release e2e e2e-android fuzz sanitizers leaks bench soak soak-short instructions instructions-baseline ci doc-test test-vendored embed-metaschemas mutants mutants-check mutants-sample

deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build

# The web kit's tools: npm (offline npm pack), TypeScript (tsc), a minifier for the size budget.
js-deps:
	@scripts/ensure-deps.sh npm node-typescript uglifyjs

# The shipped bridgectl, the one bench/run.sh measures: one file with the Swift runtime linked
# in (--static-swift-stdlib), and not position-independent, so the loader applies none of the
# ~37,000 relocations of a PIE build at each start (about 0.8 ms of a ~8 ms single-file run).
# The cost: the executable itself is not placed at a random address (libraries still are).
RELEASE_SCRATCH ?= .build
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -no-pie
release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --scratch-path $(RELEASE_SCRATCH) --product bridgectl
	@echo "built $(RELEASE_SCRATCH)/release/bridgectl"

# The main job: validate the example messages with the example contracts (found in ./contracts).
demo: build
	$(BRIDGECTL) validate Examples/messages/apply.json
	@echo "--- an invalid message (exit 1 expected):"
	@$(BRIDGECTL) validate Examples/messages/apply-invalid.json; echo "exit code: $$?"

# Every test: the package graph, C warnings, Swift tests (incl. the JSON Schema suite), the
# routing-only example, contract lint, fixtures through the host, generated JS freshness,
# compatibility with the released contracts, the Node tests of the web kit, and the doc test
# (mutants-check runs with make mutants, so a refactor need not edit the mutant list first).
# All of it runs with a TMPDIR of its own, removed afterwards (scripts/in-scratch-tmp.sh), so what
# the tools under the tests leave there (SwiftPM's lock files) does not stay in /tmp either; it
# then lists what is new in /tmp, and fails on it when CI=true (a warning elsewhere).
test:
	@scripts/in-scratch-tmp.sh --name "make test" $(MAKE) --no-print-directory test-targets

test-targets: deps layers c-warnings test-c build test-swift test-stdio example adopter-app lint check verify generate-check compat test-js catalog-test doc-test

# What CI runs: every test, the whole suite again with the vendored C libraries, then the
# end to end runs in a real WebKit and (Android's channels) a real Chromium, bounded fuzzing, the
# test suite under ASan and UBSan, leak checks of the command line, the short soak, and the
# instruction guard.
ci: test test-vendored e2e e2e-android fuzz sanitizers leaks soak-short instructions

# The package trait VendoredC (what an iOS app enables): jansson and PCRE2 built from the
# vendored Debian sources, PCRE2 without JIT. Its own scratch path, so the default build stays.
# The vendored bridgectl must link neither system library (ldd), then the whole Swift suite runs.
VENDORED_SCRATCH ?= .build-vendored
test-vendored:
	$(SWIFT) build --traits VendoredC --scratch-path $(VENDORED_SCRATCH)
	scripts/check-vendored-links.sh $(VENDORED_SCRATCH)/debug/bridgectl
	$(SWIFT) test --traits VendoredC --scratch-path $(VENDORED_SCRATCH)

# The package graph (needs no build): the deep link stack reaches no C target and depends only on
# the layers below it, and every target imports exactly the modules Package.swift declares
# (`swift build --explicit-target-dependency-import-check` does not catch that on Linux). And no
# product source can print a Swift debug description as an error text (check-error-texts). And the
# tests RELIABILITY.md's boundary table names exist (check-test-tables), and so do those of the
# table of the docs' refusals, each refusal still in its doc (refusal-table).
layers:
	node scripts/check-layers.mjs
	node scripts/check-imports.mjs
	node scripts/check-error-texts.mjs
	node --test scripts/check-test-tables.test.mjs | grep -E '^# (pass|fail)'
	node scripts/check-test-tables.mjs
	node --test scripts/refusal-table.test.mjs | grep -E '^# (pass|fail)'
	node scripts/refusal-table.mjs --check

# The app that links only DeeplinkRouting and DeeplinkNavigation: push, AlimTalk and an
# auth-required link across a cold start and a login, against its expected output.
# And the app-integration doc's example, compiled with `import BridgeKit` alone and run; its code
# block in docs/app-integration.md must be the same text as the file.
example: build
	.build/debug/RoutingOnly | diff -u Examples/RoutingOnly/expected-output.txt -
	@echo "Examples/RoutingOnly: output as expected"
	node scripts/check-doc-snippets.mjs
	.build/debug/AppIntegration | diff -u Examples/AppIntegration/expected-output.txt -
	@echo "Examples/AppIntegration: output as expected"

# An adopter's app package outside the repository (Tests/adopter-app: Larkspur Foods, a made-up
# company): copied into a temporary folder, built against bridgekit by local path with
# BridgeContractsPlugin (bridgekit rebuilt in its own scratch folder: about two minutes alone),
# run against its expected output (a message decoded as a struct the plugin generated), rebuilt
# after a contract edit, refused without a manifest and with a schema no Swift type expresses;
# and `strings` of its binary must show no name of the example company.
adopter-app: deps
	Tests/adopter-app/run.sh

# Also the style: every hand-written C file (the checker, its tests, the fuzz harnesses, the bench
# programs; not the vendored libraries) is as clang-format leaves it under .clang-format.
C_FORMATTED := $(wildcard Sources/CSchemaCheck/*.[ch] Sources/CSchemaCheck/include/*.h Tests/c/*.[ch] \
	fuzz/*.[ch] fuzz/swift/Sources/CFuzzDriver/*.c fuzz/swift/Sources/CFuzzDriver/include/*.h bench/*.[ch])
c-warnings:
	@scripts/ensure-deps.sh clang-format
	@for source in $(C_SOURCES); do gcc $(C_FLAGS) -c $$source -o /dev/null || exit 1; done
	@echo "C sources build warning-free with -Wall -Wextra -Werror ($(words $(C_SOURCES)) files)"
	@clang-format --dry-run --Werror $(C_FORMATTED)
	@echo "C sources formatted as .clang-format says ($(words $(C_FORMATTED)) files, clang-format -i to apply)"

# The C checker's own tests: ECMA regex and formats, input limits, the fast reader against
# jansson, fuzz regressions (each also under ASan and UBSan). The regex and limits tests run
# twice: with PCRE2's JIT, and without it (SC_REGEX_NO_JIT, as on iOS and with VendoredC).
test-c: deps
	Tests/c/run-regex-format-tests.sh | tail -n 1
	SC_EXTRA_CFLAGS=-DSC_REGEX_NO_JIT Tests/c/run-regex-format-tests.sh | tail -n 1
	Tests/c/run-limits-tests.sh | tail -n 1
	SC_EXTRA_CFLAGS=-DSC_REGEX_NO_JIT Tests/c/run-limits-tests.sh | tail -n 1
	Tests/c/run-reader-tests.sh | tail -n 1
	Tests/c/regressions/run.sh | tail -n 1

test-swift: build
	$(SWIFT) test

# host --stdio against a reader that stops reading for 3 s: the host blocks (its memory and the
# input it takes stay flat) and, once read again, answers every message exactly once.
test-stdio: build
	scripts/ensure-deps.sh python3
	/usr/bin/python3 Tests/stdio/host_backpressure.py $(BRIDGECTL)

# Also the test contract set with a custom action (share v1, "handler": "custom"), which the
# example contracts do not have yet.
CUSTOM_ACTION_CONTRACTS := Tests/contracts/custom-action
# And a second company's set (a food-delivery app: its own domain, scheme, bridge name, actions,
# channels sms and yumchat, analytics and funnel names), a project folder of its own: run from
# inside it, each command finds its contracts/ with no flag, as an adopter's do.
ADOPTER := Tests/contracts/food-delivery
ADOPTER_BRIDGECTL := $(CURDIR)/$(BRIDGECTL)
lint: build
	$(BRIDGECTL) lint
	$(BRIDGECTL) lint --contracts $(CUSTOM_ACTION_CONTRACTS)
	cd $(ADOPTER) && $(ADOPTER_BRIDGECTL) lint

# The contract tests against a host process over the JSON-lines host protocol: here the Swift
# host, as an Android team runs them against theirs (docs/host-protocol.md), with the example set
# and with another company's (the food-delivery adopter).
verify: build
	$(BRIDGECTL) verify -- $(BRIDGECTL) host --stdio | tail -n 1
	cd $(ADOPTER) && $(ADOPTER_BRIDGECTL) verify -- $(ADOPTER_BRIDGECTL) host --stdio | tail -n 1

check: build
	$(BRIDGECTL) check | tail -n 1
	$(BRIDGECTL) check --contracts $(CUSTOM_ACTION_CONTRACTS) | tail -n 1
	cd $(ADOPTER) && $(ADOPTER_BRIDGECTL) check | tail -n 1
	cd $(ADOPTER) && $(ADOPTER_BRIDGECTL) validate messages/order.json
	cd $(ADOPTER) && { $(ADOPTER_BRIDGECTL) validate messages/order-invalid.json; test $$? -eq 1; }
	cd $(ADOPTER) && $(ADOPTER_BRIDGECTL) host --stdio < messages/host-session.jsonl | grep -c '"url":"https://order.yumtable.example/stores/st-42"' >/dev/null
	cd $(ADOPTER) && link=$$($(ADOPTER_BRIDGECTL) link build orderMenu --param storeId=st-42 --query menu=m-7 \
			--query quantity=1 --campaign-id lunch_rush --utm medium=Text_Message) && \
		test "$$link" = 'https://order.yumtable.example/stores/st-42/order?menu=m-7&quantity=1&campaign_id=lunch_rush&utm_medium=Text_Message' && \
		$(ADOPTER_BRIDGECTL) route "$$link" --format json | grep -c '"source": "sms"' >/dev/null
	cd $(ADOPTER) && funnel=$$($(ADOPTER_BRIDGECTL) funnel messages/funnel-events.ndjson) && \
		grep -c '4 deep-link sessions' <<<"$$funnel" >/dev/null && \
		grep -c 'wrong landing (home <= 10 s)  1/4' <<<"$$funnel" >/dev/null && \
		grep -c 'source=yumchat' <<<"$$funnel" >/dev/null
	@echo "$(ADOPTER): validate, host --stdio, link build, route and funnel answer with its own contracts"

# SchemaCheck's meta-schemas as a committed Swift source (not through the EmbedResources plugin:
# BridgeContractsPlugin's tool links SchemaCheck, and SwiftPM runs no build-tool plugin for a
# plugin tool's dependencies). generate-check fails while it differs from metaschemas/.
EMBED_TOOL := .build/debug/EmbedResourcesTool
METASCHEMAS_SWIFT := Sources/SchemaCheck/BundledMetaSchemas.swift
EMBED_METASCHEMAS = $(EMBED_TOOL) --regenerate "make embed-metaschemas" metaschemas $(1) BundledMetaSchemas
embed-metaschemas:
	$(SWIFT) build --product EmbedResourcesTool
	$(call EMBED_METASCHEMAS,$(METASCHEMAS_SWIFT))

generate-check: build
	scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && \
		$(call EMBED_METASCHEMAS,"$$scratch/BundledMetaSchemas.swift") && \
		{ cmp -s "$$scratch/BundledMetaSchemas.swift" $(METASCHEMAS_SWIFT) || \
			{ echo "$(METASCHEMAS_SWIFT): stale (metaschemas/ changed): regenerate with make embed-metaschemas"; exit 1; }; }
	@echo "$(METASCHEMAS_SWIFT): current with metaschemas/"
	$(BRIDGECTL) generate js --contracts contracts --out js --check
	$(BRIDGECTL) generate swift --contracts contracts --out Sources/BridgeContractTypes --check
	$(BRIDGECTL) generate aasa --check --out contracts/well-known/apple-app-site-association.json
	$(BRIDGECTL) generate assetlinks --check --out contracts/well-known/assetlinks.json
	cd $(ADOPTER) && $(ADOPTER_BRIDGECTL) generate aasa --check --out contracts/well-known/apple-app-site-association.json
	cd $(ADOPTER) && $(ADOPTER_BRIDGECTL) generate assetlinks --check --out contracts/well-known/assetlinks.json
	scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && \
		$(BRIDGECTL) generate js --contracts $(ADOPTER)/contracts --out "$$scratch/js" >/dev/null && \
		$(BRIDGECTL) generate js --contracts $(ADOPTER)/contracts --out "$$scratch/js" --check && \
		! grep -rqi sendy "$$scratch/js" && \
		$(BRIDGECTL) generate swift --contracts $(ADOPTER)/contracts --out "$$scratch/swift" >/dev/null && \
		$(BRIDGECTL) generate swift --contracts $(ADOPTER)/contracts --out "$$scratch/swift" --check

# The compatibility gate: contracts/ against the snapshot of what app builds in the field have
# (contracts-released/). First: releases.json and the snapshot tell one story (the snapshot holds
# exactly the action versions supported builds take); then the diff, which fails on a breaking or
# possibly breaking finding that contracts/accepted-changes.json does not accept.
compat: build
	$(BRIDGECTL) release check
	$(BRIDGECTL) diff contracts-released contracts
	cd $(ADOPTER) && $(ADOPTER_BRIDGECTL) release check
	cd $(ADOPTER) && $(ADOPTER_BRIDGECTL) diff contracts-released contracts

# After an app build ships with the current contracts, the one way to record it:
#   make record-release PLATFORM=ios VERSION=5.14.0 [SHARE=2.5]
# (bridgectl release record: releases.json gets the build, contracts-released/ is refreshed.)
record-release: build
	@test -n "$(PLATFORM)" -a -n "$(VERSION)" || { echo "usage: make record-release PLATFORM=ios|android VERSION=X.Y.Z [SHARE=percent]" >&2; exit 2; }
	$(BRIDGECTL) release record $(PLATFORM) $(VERSION) $(if $(SHARE),--share $(SHARE))
	$(BRIDGECTL) generate js --contracts contracts --out js

# The web kit: every JS file of js/ parses (node --check; the hand-written runtime in js/src, the
# generated files, and the app's document-start script template in js/host), the size budget,
# then the Node tests: the runtime alone, the generated shim, the fixtures and the cross-checks
# with bridgectl, the validators' agreement with the C checker (CORPUS_SIZE messages, default
# 100,000), tsc --strict and the compile-fail suite, and npm pack + install by package name.
test-js: build js-deps
	@for file in js/src/*.js js/*.js js/testing/*.js js/host/*.js; do node --check $$file || exit 1; done
	@echo "node --check: $$(ls js/src/*.js js/*.js js/testing/*.js js/host/*.js | wc -l) JS files of js/ parse"
	node js/tools/bundle-size.mjs --check
	BRIDGECTL=$(CURDIR)/$(BRIDGECTL) node --test js/test/

# The contract catalog (bridgectl docs) in Debian's headless Chromium, driven over the DevTools
# protocol: every page loads from file:// without console errors or broken links, the link builder
# gives what `bridgectl link build` gives, and screenshots go to .build/ci-artifacts/. The same
# browser checks the page of `bridgectl funnel --html`: well-formed XHTML, bars as wide as their rates.
catalog-test: build
	scripts/ensure-deps.sh chromium fonts-nanum
	BRIDGECTL=$(CURDIR)/$(BRIDGECTL) node --test catalog/test/

# Runs the console examples of README.md, docs/, BENCHMARKS.md, RELIABILITY.md and compares
# their output (the convention is at the top of scripts/doc-test.py and in docs/testing.md).
doc-test: build
	scripts/ensure-deps.sh python3
	/usr/bin/python3 scripts/doc-test.py

e2e: build
	e2e/run.sh

# Android's two bridge channels in headless Chromium over the DevTools protocol (installs chromium).
e2e-android: build
	e2e/run-android.sh

FUZZ_SECONDS ?= 60
fuzz:
	scripts/ensure-deps.sh jq
	fuzz/run.sh $(FUZZ_SECONDS)

sanitizers: deps
	scripts/sanitizers.sh

leaks: deps
	scripts/ensure-deps.sh jq
	scripts/leaks.sh

bench: deps
	bench/run.sh

# The soak benchmark (release builds, then about a minute a round on the 2-core machine): one long seeded
# session (the three CTAs, resends, logged-out stretches with login, cold starts with a late
# ready, invalid and hostile messages, other origins) through host --stdio and through BridgeHost
# in process, at 20,000 and 500,000 messages: the peak-memory ratio of each path, the in-process
# latency per message, and whether anything was lost (bench/soak.py says how).
SOAK_MESSAGES ?= 20000,500000
SOAK_ROUNDS ?= 1
soak: deps
	$(SWIFT) build $(RELEASE_FLAGS) --scratch-path $(RELEASE_SCRATCH) --product bridgectl
	$(SWIFT) build $(RELEASE_FLAGS) --scratch-path $(RELEASE_SCRATCH) --product SoakBench
	scripts/ensure-deps.sh python3
	/usr/bin/python3 bench/soak.py run --bridgectl $(RELEASE_SCRATCH)/release/bridgectl --soak $(RELEASE_SCRATCH)/release/SoakBench \
		--messages $(SOAK_MESSAGES) --rounds $(SOAK_ROUNDS)

# CI's soak: the same session on the debug build, 2,000 and 20,000 messages (under 2 minutes):
# the memory ratios and nothing lost are judged; latency is printed only (a debug build).
soak-short: build
	$(SWIFT) build --product SoakBench
	scripts/ensure-deps.sh python3
	/usr/bin/python3 bench/soak.py run --bridgectl $(BRIDGECTL) --soak .build/debug/SoakBench --messages 2000,20000 --rounds 1 --short
# The instruction guard (docs/instruction-guard.md): callgrind counts the instructions of the
# in-process soak path (BridgeHost.receive over 5,000 seeded messages) and of
# `bridgectl validate --ndjson` over a seeded 3,000-line corpus, on release builds in their own
# scratch path; fails when either is above bench/instruction-baseline.json + 3%. The counts do
# not move with the machine's load. `make instructions-baseline` records the current counts.
INSTRUCTIONS_SCRATCH ?= .build-instructions
INSTRUCTIONS_BUILD = $(SWIFT) build -c release --scratch-path $(INSTRUCTIONS_SCRATCH)
INSTRUCTIONS_RUN = /usr/bin/python3 bench/instructions.py --soak $(INSTRUCTIONS_SCRATCH)/release/SoakBench \
	--bridgectl $(INSTRUCTIONS_SCRATCH)/release/bridgectl
instructions: deps
	scripts/ensure-deps.sh valgrind python3
	$(INSTRUCTIONS_BUILD) --product SoakBench
	$(INSTRUCTIONS_BUILD) --product bridgectl
	$(INSTRUCTIONS_RUN)

instructions-baseline: deps
	scripts/ensure-deps.sh valgrind python3
	$(INSTRUCTIONS_BUILD) --product SoakBench
	$(INSTRUCTIONS_BUILD) --product bridgectl
	$(INSTRUCTIONS_RUN) --update

# Mutation testing: each mutant of scripts/mutants/mutants.json (a small plausible bug) applied alone
# to a reused scratch copy of the repository, its narrowest test command run, the score printed.
# Takes about half an hour on 2 cores; not part of make test or CI. ONLY=name,name runs some,
# FULL=1 also runs make test for each survivor.
mutants: deps mutants-check
	node scripts/mutants/run.mjs $(if $(FULL),--full) $(if $(ONLY),--only $(ONLY))

# Cheap: every mutant's search string is found exactly once in its file, the site finder's own
# tests pass, and the recorded equivalents of the sampled run are sound (the file only shrinks).
mutants-check:
	node scripts/mutants/run.mjs --check
	node --test scripts/mutants/ | tail -n 8 | grep -E '^# (pass|fail)'
	node scripts/mutants/sample.mjs --check

# The sampled mutation run: sites found mechanically in Sources/ and js/src, a seeded sample of
# PER_MODULE per module, each mutant run against its module's narrowest tests; per-module and
# overall scores, survivors listed (docs/testing.md says how long it takes and how to read it).
# A stopped run resumes from its journal; FRESH=1 starts the seed again.
SEED ?= 1
PER_MODULE ?= 10
mutants-sample: deps js-deps
	node scripts/mutants/sample.mjs --seed $(SEED) --per-module $(PER_MODULE) $(if $(MODULES),--modules $(MODULES)) $(if $(FRESH),--fresh)
