#!/usr/bin/env bash
# The agent jar is reproducible (issue 33): builds it twice, from two clean clones of HEAD in two different
# directories at two different times, and compares the bytes of the jar and of its SBOM. Prints each
# artifact's size and SHA-256; exits 1 if the two builds differ. Maven flags after the script's name go to
# both builds (CI passes none; -o builds offline, without the SBOM: the CycloneDX plugin needs the network).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for build in first second; do
  git clone -q "$root" "$work/$build"
  (cd "$work/$build" && mvn -B -q "$@" package -pl policy-runtime,agent -am -DskipTests -DskipITs)
  sleep 2   # a different clock for the second build: a time that leaks into the jar shows up as a difference
done

status=0
for artifact in mcp-policy-agent.jar mcp-policy-agent.cdx.json; do
  first="$work/first/agent/target/$artifact"
  second="$work/second/agent/target/$artifact"
  if [ ! -f "$first" ]; then
    echo "[reproducible] $artifact: not built (an offline build makes no SBOM)"
    continue
  fi
  echo "[reproducible] $artifact: $(stat -c %s "$first") bytes, sha256 $(sha256sum "$first" | cut -d' ' -f1) (first build)"
  echo "[reproducible] $artifact: $(stat -c %s "$second") bytes, sha256 $(sha256sum "$second" | cut -d' ' -f1) (second build)"
  if ! cmp -s "$first" "$second"; then
    echo "[reproducible] FAIL: the two builds of $artifact differ"
    status=1
  fi
done
[ $status -eq 0 ] && echo "[reproducible] OK: two clean builds made the same bytes"
exit $status
