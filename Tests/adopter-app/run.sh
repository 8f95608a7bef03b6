#!/usr/bin/env bash
# The adopter's app, built where an adopter builds it: this folder (Package.swift, one app target
# that applies BridgeContractsPlugin, its own contracts/ of Larkspur Foods, a made-up company) is
# copied into a temporary folder outside the repository and built against bridgekit by local path,
# in its own scratch folder (so bridgekit is built again from nothing: minutes, not seconds). Then:
#   1. its output equals expected-output.txt (the embedded set routes its own message);
#   2. `strings` of its binary shows no name of the example company (the repository's contracts/);
#   3. an edited contract rebuilds the app with the new set (every file of contracts/ is an input);
#   4. without contracts/manifest.json the build stops with the plugin's error naming the target;
#   5. a contract file that is not JSON stops the build, naming the file;
#   6. a schema part the typed messages cannot express stops the build, naming it.
# Its output includes a message decoded as OrderMenuV1, a struct the plugin generated (1.).
# The embedded set's digest must be the one the documented sha256sum recipe gives for the folder:
# the same files as ContractSet.load(directory:) reads.
# The temporary folder is removed however the script ends. Exit 0 pass, 1 a check failed.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE="$ROOT/Tests/adopter-app"
SWIFT=${SWIFT:-swift}

work=$(mktemp -d "${TMPDIR:-/tmp}/bridgekit-adopter-app.XXXXXX")
trap 'rm -rf "$work"' EXIT
case "$work/" in
    "$ROOT"/*) echo "adopter-app: the temporary folder $work is inside the repository" >&2; exit 1 ;;
esac

mkdir "$work/app" "$work/tmp"
# SwiftPM leaves lock files named after the build folder in TMPDIR: keep them in the work folder.
export TMPDIR="$work/tmp"
cp -R "$HERE/Package.swift" "$HERE/Sources" "$work/app/"
start=$(date +%s)
if ! (cd "$work/app" && BRIDGEKIT_PATH="$ROOT" "$SWIFT" build --scratch-path "$work/build" >"$work/build.log" 2>&1); then
    tail -n 40 "$work/build.log" >&2
    echo "adopter-app: the package outside the repository does not build" >&2
    exit 1
fi
echo "adopter-app: built outside the repository in $(( $(date +%s) - start )) s (bridgekit included)"

binary="$work/build/debug/LarkspurApp"
(cd "$work" && "$binary") | diff -u "$HERE/expected-output.txt" -
echo "adopter-app: output as expected (Tests/adopter-app/expected-output.txt)"
recipe=$(cd "$work/app/Sources/LarkspurApp/contracts" && find . -name '*.json' | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)
if ! (cd "$work" && "$binary") | grep -cx "digest: $recipe" >/dev/null; then
    echo "adopter-app: the embedded set's digest is not the folder's ($recipe)" >&2
    exit 1
fi
echo "adopter-app: the embedded set has the folder's digest (the files ContractSet.load reads)"

# The example company's names: ASCII ones case-insensitively, 센디 as its UTF-8 bytes (strings -a
# shows only ASCII runs, so the Korean name is searched in the raw bytes too). A finding fails the
# script at the end, after the other checks have run.
foreign=0
found=$(strings -a "$binary" | grep -i -o -E 'sendy|kakao|alimtalk' | sort | uniq -c || true)
korean=$(LC_ALL=C grep -a -c $'\xec\x84\xbc\xeb\x94\x94' "$binary" || true)
if [ -n "$found" ] || [ "$korean" != "0" ]; then
    foreign=1
    {
        echo "adopter-app: FAIL: the binary carries names of the example company (counts of matches):"
        [ -z "$found" ] || echo "$found"
        [ "$korean" = "0" ] || echo "      $korean line(s) of the binary with 센디"
        echo "adopter-app: the strings that carry them (most frequent first):"
        strings -a "$binary" | grep -i -E 'sendy|kakao|alimtalk' | cut -c1-120 | sort | uniq -c | sort -rn | head -n 15
    } >&2
else
    echo "adopter-app: strings of the binary show no name of the example company (sendy, 센디, kakao, alimtalk)"
fi

build_again() { (cd "$work/app" && BRIDGEKIT_PATH="$ROOT" "$SWIFT" build --scratch-path "$work/build" >"$work/build.log" 2>&1); }

# The build must fail, and its log hold TEXT (a fixed string): refuses WHAT (the case, for the messages).
refuses() {
    local what=$1 text=$2
    if build_again; then
        echo "adopter-app: the build passed $what" >&2
        exit 1
    fi
    if ! grep -qF -- "$text" "$work/build.log"; then
        tail -n 20 "$work/build.log" >&2
        echo "adopter-app: the build $what failed without naming it ($text)" >&2
        exit 1
    fi
}

# 3. The bridge name is printed from the embedded manifest: renamed, it must change after a build.
manifest="$work/app/Sources/LarkspurApp/contracts/manifest.json"
sed -i 's/"bridge": "larkspurBridge"/"bridge": "larkspurKitchen"/' "$manifest"
build_again || { tail -n 40 "$work/build.log" >&2; echo "adopter-app: the rebuild after a contract edit failed" >&2; exit 1; }
if ! (cd "$work" && "$binary") | grep -c "bridge larkspurKitchen," >/dev/null; then
    echo "adopter-app: an edited manifest.json did not rebuild the embedded set" >&2
    exit 1
fi
echo "adopter-app: an edited contract rebuilds the app with the new set"

# 4. No manifest: the plugin refuses the target, with the path it looked for.
rm "$manifest"
refuses "without contracts/manifest.json" "target 'LarkspurApp' has no contracts/manifest.json among its sources"
echo "adopter-app: without contracts/manifest.json the build stops with the plugin's error"

# 4b. The plugin's tool run by itself on that folder refuses it too, naming the path, and writes nothing.
tool=$(find "$work/build" -path '*/debug/BridgeContractsPluginTool-tool' -type f | head -n 1)
[ -n "$tool" ] || { echo "adopter-app: the plugin's tool is not in $work/build" >&2; exit 1; }
contracts="$work/app/Sources/LarkspurApp/contracts"
mkdir "$work/tool-out"
if "$tool" "$contracts" "$work/tool-out/Embedded.swift" "$work/tool-out/Types.swift" BridgeKit 2>"$work/tool.log"; then
    echo "adopter-app: the plugin's tool passed a folder without manifest.json" >&2
    exit 1
fi
if ! grep -qF "$contracts/manifest.json: missing" "$work/tool.log" || [ -n "$(ls -A "$work/tool-out")" ]; then
    cat "$work/tool.log" >&2
    echo "adopter-app: the plugin's tool did not name the missing manifest.json, or wrote files" >&2
    exit 1
fi
echo "adopter-app: the plugin's tool alone refuses a folder without manifest.json, and writes nothing"

# 4c. On the example's own set the tool writes both files; run again on the unchanged set it leaves
#     them untouched (a rewrite would recompile the app target on every build), and a file that
#     differs from what it would write is written again.
outputs=("$work/tool-out/Embedded.swift" "$work/tool-out/Types.swift")
run_tool() { "$tool" "$HERE/Sources/LarkspurApp/contracts" "${outputs[@]}" BridgeKit 2>"$work/tool.log"; }
run_tool || { cat "$work/tool.log" >&2; echo "adopter-app: the plugin's tool failed on the example's set" >&2; exit 1; }
cp "${outputs[1]}" "$work/types-as-written.swift"
touch -d '2001-01-01 00:00:00' "${outputs[@]}"
run_tool || { cat "$work/tool.log" >&2; echo "adopter-app: the plugin's tool failed on a second run" >&2; exit 1; }
if [ "$(stat -c %Y "${outputs[@]}" | sort -u)" != "$(date -d '2001-01-01 00:00:00' +%s)" ]; then
    echo "adopter-app: the plugin's tool rewrote its outputs for an unchanged set" >&2
    exit 1
fi
echo "// edited" >>"${outputs[1]}"
run_tool || { cat "$work/tool.log" >&2; echo "adopter-app: the plugin's tool failed on a third run" >&2; exit 1; }
if ! cmp -s "${outputs[1]}" "$work/types-as-written.swift"; then
    echo "adopter-app: the plugin's tool kept an output that differs from what it writes" >&2
    exit 1
fi
echo "adopter-app: the plugin's tool leaves unchanged outputs untouched and rewrites a changed one"

# 5. A schema that is not JSON: the plugin's tool names it.
echo '{"bridge": "larkspurKitchen"}' >"$manifest"
echo '{ "type": ' >"$work/app/Sources/LarkspurApp/contracts/schemas/order_menu.v1.json"
refuses "with a schema that is not JSON" "contracts/schemas/order_menu.v1.json: not JSON"
echo "adopter-app: a contract file that is not JSON stops the build, named"

# 6. The set again, with a oneOf in the payload: no Swift type for it, so no build.
cp -R "$HERE/Sources/LarkspurApp/contracts/." "$work/app/Sources/LarkspurApp/contracts/"
sed -i 's/"size": { "enum": \["regular", "large"\], "description": "The portion." }/"size": { "oneOf": [{ "const": "regular" }, { "const": "large" }] }/' \
    "$work/app/Sources/LarkspurApp/contracts/schemas/order_menu.v1.json"
grep -q '"oneOf"' "$work/app/Sources/LarkspurApp/contracts/schemas/order_menu.v1.json" \
    || { echo "adopter-app: the oneOf edit of order_menu.v1.json did not apply" >&2; exit 1; }
refuses "with a schema part the typed messages cannot express" \
    'order_menu.v1.json#/$defs/payload/properties/size/oneOf: oneOf has no Swift counterpart'
echo "adopter-app: a schema part the typed messages cannot express stops the build, named"
exit "$foreign"
