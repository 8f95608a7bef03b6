#!/usr/bin/env bash
# Builds the seed corpora of every fuzz target into fuzz/out/corpus/<target>/ (git-ignored).
# Seeds are derived, never committed in bulk:
#   validate  bridge messages of contracts/fixtures and Examples/messages/, plus every test instance
#             ("data") of the JSON-Schema-Test-Suite (every draft: 2020-12, 2019-09, 7, 6, 4)
#   parse     the same seeds as validate
#   compile   contracts/schemas, the meta-schemas and every schema of the suite
#   host      the fixture messages as host sessions (origin line, main-frame flag, message)
#   url       route patterns filled in, fixture entry links, look-alike and hostile URLs
#   regex     every pattern of the contracts and the suite (pattern, patternProperties),
#             each with a few subjects: empty, ASCII, Korean, an invalid byte
# Usage: fuzz/build-corpus.sh [OUT_DIR]   (needs jq)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:-$ROOT/fuzz/out/corpus}"
SUITE="$ROOT/Tests/json-schema-test-suite"
[ -d "$SUITE/tests" ] || SUITE="$ROOT/../shared/json-schema-test-suite"
command -v jq >/dev/null || { echo "build-corpus: jq is required" >&2; exit 2; }

mkdir -p "$OUT"/{validate,compile,host,url,regex}

# Writes stdin to DIR/<sha1 of content>, so repeated seeds collapse into one file.
seed() {
    local dir="$1" tmp
    tmp="$(mktemp)"
    cat >"$tmp"
    if [ -s "$tmp" ]; then mv "$tmp" "$dir/$(sha1sum "$tmp" | cut -c1-16)"; else rm -f "$tmp"; fi
}

# Each fixture's message: "raw" when present (bytes a JSON encoder could not produce), else
# the "message" value serialized compactly.
for fixture in "$ROOT"/contracts/fixtures/*/v*/*.json; do
    jq -j 'if has("raw") then .raw else (.message | tojson) end' "$fixture" | seed "$OUT/validate"
    # Host session: line 1 origin, line 2 "main" or "frame", line 3 auth "in"/"out", rest the message.
    jq -j '(.origin // "https://sendy.co.kr") + "\n" + (if .isMainFrame == false then "frame" else "main" end)
           + "\n" + (if .authenticated == false then "out" else "in" end) + "\n"
           + (if has("raw") then .raw else (.message | tojson) end)' "$fixture" | seed "$OUT/host"
    jq -j '.entry // empty' "$fixture" | seed "$OUT/url"
done
for example in "$ROOT"/Examples/messages/*.json; do
    [ -f "$example" ] && seed "$OUT/validate" <"$example"
done

# The JSON-Schema-Test-Suite: instances feed validate, schemas feed compile. One compact
# JSON text per line, de-duplicated, split into one file per line (fast: no process per seed).
lines_to_seeds() {
    local dir="$1" prefix="$2"
    sort -u | split -l 1 -a 5 - "$dir/$prefix"
}
suite_files="$(find "$SUITE/tests" -name '*.json' | sort)"
# shellcheck disable=SC2086
jq -c '.[] | .tests[] | .data' $suite_files | lines_to_seeds "$OUT/validate" suite-
# shellcheck disable=SC2086
jq -c '.[] | .schema' $suite_files | lines_to_seeds "$OUT/compile" suite-
for schema in "$ROOT"/contracts/schemas/*.json $(find "$ROOT/metaschemas" -name '*.json'); do
    seed "$OUT/compile" <"$schema"
done

# URLs: every route pattern with sample values on both link forms, plus hostile shapes.
jq -r '.routes[].pattern' "$ROOT/contracts/routes.json" | while IFS= read -r pattern; do
    path="$(printf '%s' "$pattern" | sed -E 's#:[A-Za-z]+#new-user-promo#g')"
    printf 'https://sendy.co.kr%s' "$path" | seed "$OUT/url"
    printf 'https://www.sendy.co.kr%s?campaign_id=c1&utm_source=kakaotalk' "$path" | seed "$OUT/url"
    printf 'sendy:/%s?page=2&memo=a%%2Bb%%20c' "$path" | seed "$OUT/url"
done
for url in 'https://sendy.co.kr.evil.example/event/x' 'https://user@sendy.co.kr/event/x' \
    'javascript:alert(1)' 'https://sendy.co.kr/event/%2525' 'https://sendy.co.kr/event/%ED%95%9C' \
    'https://sendy.co.kr/vehicles?page=99999999999999999999' 'sendy://event/a/apply?plan=%FF' \
    'https://sendy.co.kr//event//x/' 'https://sendy.co.kr/event/x?memo=a+b&memo=c' 'http://sendy.co.kr/start' \
    $'\v\vhttps://www.sendy.co.kr/order?campaign_id=c1\v' $' https://sendy.co.kr/event/x\t\n'; do
    printf '%s' "$url" | seed "$OUT/url"
done

# Patterns: the pattern, a NUL byte, then the subject (fuzz/fuzz_regex.c).
# shellcheck disable=SC2086
jq -r '.. | objects | (.pattern? // empty | strings), (.patternProperties? // empty | objects | keys[])' \
    $suite_files "$ROOT"/contracts/schemas/*.json | sort -u | while IFS= read -r pattern; do
    for subject in '' 'ev-1' 'Ab_9.z' $'\xea\xb0\x80\xed\x95\x9c' $'a\xff'; do
        printf '%s\0%s' "$pattern" "$subject" | seed "$OUT/regex"
    done
done

# The parser target starts from the same messages and instances as validate.
mkdir -p "$OUT/parse"
cp "$OUT"/validate/* "$OUT/parse/"

for target in validate parse compile regex host url; do
    echo "corpus $target: $(ls "$OUT/$target" | wc -l) seeds"
done
