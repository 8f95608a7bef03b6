# What e2e/run.sh and e2e/run-android.sh share, sourced by both (not a script of its own). The
# caller sets E2E_NAME (the prefix of its lines), PACKAGES (the Debian packages it needs) and
# E2E_SCRATCH (its temporary folder, removed on exit).

setup_failure() {
    echo "FAIL setup: $*" >&2
    echo "FAIL setup: $*"
    echo "0 passed, 1 failed"
    exit 2
}

missing_packages() {
    local package
    for package in "${PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || echo "$package"
    done
}

# Installs what missing_packages lists, retrying once after apt-get update; fails loudly.
install_packages() {
    local missing log="$E2E_SCRATCH/apt.log"
    missing=$(missing_packages)
    [ -z "$missing" ] && return 0
    echo "$E2E_NAME: installing missing packages: $(echo $missing)"
    local apt=(apt-get)
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || setup_failure "packages missing ($(echo $missing)) and not root, no sudo"
        apt=(sudo apt-get)
    fi
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    if ! timeout 600 "${apt[@]}" install -y --no-install-recommends $missing >"$log" 2>&1; then
        echo "$E2E_NAME: apt-get install failed; running apt-get update and retrying"
        timeout 300 "${apt[@]}" update >>"$log" 2>&1
        # shellcheck disable=SC2086
        timeout 600 "${apt[@]}" install -y --no-install-recommends $missing >>"$log" 2>&1 \
            || setup_failure "could not install $(echo $missing): $(tail -n 2 "$log" | tr '\n' ' ')"
    fi
    missing=$(missing_packages)
    [ -z "$missing" ] || setup_failure "still missing after apt-get install: $(echo $missing)"
}

# The checks both runs make of what they drive.
check_bridgectl() {
    [ -x "$BRIDGECTL" ] || setup_failure "bridgectl not found at $BRIDGECTL (run 'swift build' or set BRIDGECTL)"
    "$BRIDGECTL" host --help >/dev/null 2>&1 || setup_failure "$BRIDGECTL has no working 'host' command"
    [ -f js/bridge.js ] || setup_failure "js/bridge.js is missing (run 'bridgectl generate js')"
}

# run_harness SECONDS COMMAND...: runs the harness under a time limit, its output shown as it
# comes. When the limit kills it, the summary it never printed is printed for it (what it did
# print, plus the timeout as a failure) and the status is 2. Returns the harness's status.
run_harness() {
    local limit=$1 output="$E2E_SCRATCH/output.txt" status
    shift
    timeout --kill-after=10 "$limit" "$@" | tee "$output"
    status=${PIPESTATUS[0]}
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        echo "FAIL $E2E_NAME-finishes-in-time: killed after ${limit}s"
        echo "$(grep -c '^PASS ' "$output") passed, $(( $(grep -c '^FAIL ' "$output") + 1 )) failed"
        status=2
    fi
    return "$status"
}
