#!/usr/bin/env bash
# The run step of action.yml: builds the ahp-conformance command line from the action's inputs
# (INPUT_* variables), runs it, and hands its exit code to the later steps (GITHUB_OUTPUT), which
# write the job summary, upload the reports and then end the job with that code.
set -uo pipefail

action_path="${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH is set by the runner for an action step}"
output="${GITHUB_OUTPUT:-/dev/null}"

refuse() {
  echo "::error::$1"
  echo "exit-code=2" >>"$output"
  exit 0
}

# The tool could not be installed or started: exit code 3 (the target could not be exercised),
# never 1, which means conformance failures.
cannot_start() {
  echo "::error::$1"
  echo "exit-code=3" >>"$output"
  exit 0
}

own_version() {
  node -p 'require(process.argv[1]).version' "$action_path/package.json" ||
    refuse "cannot read the action's package.json; set the version input."
}

case "${INPUT_VERSION:-}" in
  '' | action)
    # The action's own checkout: it works for any ref, released or not.
    if [ ! -d "$action_path/node_modules" ]; then
      (cd "$action_path" && npm ci --no-audit --no-fund) ||
        cannot_start "npm ci failed in the action's checkout ($action_path); see the log above."
    fi
    tool=(node "$action_path/bin/ahp-conformance.mjs")
    described="the action's checkout"
    ;;
  local)
    tool=(npx --no-install ahp-conformance)
    described="the ahp-conformance your project installed"
    ;;
  published)
    version="$(own_version)"
    tool=(npx --yes "ahp-conformance@$version")
    described="ahp-conformance@$version from the npm registry"
    ;;
  *)
    tool=(npx --yes "ahp-conformance@$INPUT_VERSION")
    described="ahp-conformance@$INPUT_VERSION from the npm registry"
    ;;
esac

command="${INPUT_COMMAND:-harness}"
args=("$command")
IFS=', ' read -ra reporters <<<"${INPUT_REPORTERS:-}"
for reporter in "${reporters[@]}"; do
  if [ -n "$reporter" ]; then args+=(--reporter "$reporter"); fi
done
args+=(--output-dir "${INPUT_OUTPUT_DIR:-ahp-reports}")

# The target and the extra arguments are split like a shell command line (quotes group words).
target=()
eval "target=(${INPUT_TARGET:-})" || refuse "the target input is not a valid command line."
extra=()
eval "extra=(${INPUT_ARGS:-})" || refuse "the args input is not a valid command line."

case "$command" in
  merge)
    shopt -s globstar nullglob
    reports=()
    # Each word of the input is a path or a glob, expanded here.
    # shellcheck disable=SC2206
    for pattern in ${INPUT_REPORTS:-}; do reports+=($pattern); done
    [ "${#reports[@]}" -gt 0 ] || refuse "the reports input matches no file; give the shards' report.json paths or a glob."
    args+=("${reports[@]}")
    ;;
  harness | backend)
    # One seed for every shard of a workflow run: merge refuses shards of different seeds.
    seed="${INPUT_SEED:-$((${GITHUB_RUN_ID:-0} % 2147483647))}"
    args+=(--seed "$seed")
    if [ -n "${INPUT_SHARD:-}" ]; then args+=(--shard "$INPUT_SHARD"); fi
    if [ -n "${INPUT_TIMEOUT_SCALE:-}" ]; then args+=(--timeout-scale "$INPUT_TIMEOUT_SCALE"); fi
    if [ -n "${INPUT_KNOWN_FAILURES:-}" ]; then args+=(--known-failures "$INPUT_KNOWN_FAILURES"); fi
    args+=("${extra[@]}")
    if [ "$command" = harness ]; then
      if [ "${#target[@]}" -gt 0 ]; then args+=(-- "${target[@]}"); fi
    else
      [ "${#target[@]}" -gt 0 ] || refuse "the backend command needs a target: an http(s) URL or the backend's command."
      if [[ "${target[0]}" =~ ^https?:// ]]; then args+=(--url "${target[0]}"); else args+=(--stdio -- "${target[@]}"); fi
    fi
    ;;
  *) refuse "the command input must be harness, backend or merge, not \"$command\"." ;;
esac

# Installed (npx fetches it here) and able to start, before anything is judged.
if ! started="$("${tool[@]}" --version 2>&1)"; then
  echo "$started"
  cannot_start "could not install or start $described; check the version input (the default, the action's own checkout, works for any ref)."
fi
echo "ahp-conformance $started ($described)"

echo "ahp-conformance ${args[*]}"
"${tool[@]}" "${args[@]}"
code=$?
echo "exit-code=$code" >>"$output"
exit 0
