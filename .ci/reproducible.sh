#!/usr/bin/env bash
# The agent jar is reproducible (issue 33): two clean builds of HEAD, in two different directories at two different
# times, make the same bytes of the jar and of its SBOM. Prints each artifact's size and SHA-256; exits 1 if they differ.
#
#   bash .ci/reproducible.sh [MAVEN FLAGS]                     builds twice, from two clean clones of HEAD
#   bash .ci/reproducible.sh --against DIR [MAVEN FLAGS]       builds once, from a clean clone, and compares with the jar
#                                                              and SBOM in DIR, made by an earlier clean build of HEAD
#                                                              (CI passes its own agent/target, built from its clean clone)
#
# Maven flags go to each build (-o builds offline, without the SBOM: the CycloneDX plugin needs the network).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
against=""
if [ "${1:-}" = "--against" ]; then
  against=$(cd "$2" && pwd)
  shift 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build() {
  git clone -q "$root" "$work/$1"
  (cd "$work/$1" && mvn -B -q "${@:2}" package -pl policy-runtime,agent -am -DskipTests -DskipITs)
}

if [ -n "$against" ]; then
  first="$against"
  build second "$@"
else
  build first "$@"
  sleep 2   # a different clock for the second build: a time that leaks into the jar shows up as a difference
  build second "$@"
  first="$work/first/agent/target"
fi
second="$work/second/agent/target"

status=0
for artifact in mcp-policy-agent.jar mcp-policy-agent.cdx.json; do
  if [ ! -f "$first/$artifact" ] || [ ! -f "$second/$artifact" ]; then
    echo "[reproducible] $artifact: not built by both (an offline build makes no SBOM)"
    continue
  fi
  echo "[reproducible] $artifact: $(stat -c %s "$first/$artifact") bytes, sha256 $(sha256sum "$first/$artifact" | cut -d' ' -f1) (first build, $first)"
  echo "[reproducible] $artifact: $(stat -c %s "$second/$artifact") bytes, sha256 $(sha256sum "$second/$artifact" | cut -d' ' -f1) (second build)"
  if ! cmp -s "$first/$artifact" "$second/$artifact"; then
    echo "[reproducible] FAIL: the two builds of $artifact differ"
    status=1
  fi
done
[ $status -eq 0 ] && echo "[reproducible] OK: two clean builds made the same bytes"
exit $status
