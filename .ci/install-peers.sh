#!/usr/bin/env bash
# Installs the third-party MCP peers the integration tests run against, at pinned versions, into a
# project-local directory (default: $HOME/.cache/mcp-peers; override with MCP_PEERS_DIR).
# Idempotent: a second run with the same pins does nothing. Installs Node.js from Debian only when
# `node` is missing. Prints the peers directory as its last line of output.
#
# What lands there (see shared research notes, peers.md):
#   node_modules/.bin/mcp-server-everything              @modelcontextprotocol/server-everything
#   node_modules/@modelcontextprotocol/inspector-cli/build/index.js
#                                                        @modelcontextprotocol/inspector-cli
#   node_modules/.bin/conformance                        @modelcontextprotocol/conformance
#   node_modules/supergateway/dist/index.js              supergateway (a stdio server over HTTP: the
#                                                        gateway row of integration-tests/perf/measure.py)
#   peers.env                                            shell variables naming each of them
#
# inspector-cli 1.0.3 must run from a directory whose parent holds a package.json (a bug in its
# version lookup): run it from "$MCP_PEERS_DIR/node_modules", with absolute paths everywhere.
# conformance is pinned to 0.1.13: 0.1.16 needs Node 22 (fs.globSync) and this machine has Node 20.
set -euo pipefail

PEERS_DIR=${MCP_PEERS_DIR:-$HOME/.cache/mcp-peers}
PINS=(
  "@modelcontextprotocol/inspector-cli@1.0.3"
  "@modelcontextprotocol/server-everything@2026.8.31"
  "@modelcontextprotocol/conformance@0.1.13"
  "supergateway@4.0.0"
)

log() { echo "[peers] $*" >&2; }

apt_install() {
  local sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo=sudo; fi
  $sudo apt-get update -q >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >&2
}
if ! command -v node >/dev/null 2>&1; then
  log "node not found: installing nodejs with apt"
  apt_install nodejs
fi
# Some nodejs builds (NodeSource's) bring npm along and conflict with Debian's npm package.
if ! command -v npm >/dev/null 2>&1; then
  log "npm not found: installing npm with apt"
  apt_install npm
fi
log "node $(node --version), npm $(npm --version)"

mkdir -p "$PEERS_DIR"
STAMP="$PEERS_DIR/.pins"
WANTED=$(printf '%s\n' "${PINS[@]}")
if [[ -f $STAMP && "$(cat "$STAMP")" == "$WANTED" && -x "$PEERS_DIR/node_modules/.bin/mcp-server-everything" ]]; then
  log "already installed in $PEERS_DIR"
else
  log "installing into $PEERS_DIR: ${PINS[*]}"
  {
    echo '{'
    echo '  "name": "mcp-policy-peers",'
    echo '  "private": true,'
    echo '  "description": "Third-party MCP peers for mcp-policy-agent integration tests (written by .ci/install-peers.sh)",'
    echo '  "dependencies": {'
    for i in "${!PINS[@]}"; do
      name=${PINS[$i]%@*}
      version=${PINS[$i]##*@}
      sep=","
      if [[ $i -eq $((${#PINS[@]} - 1)) ]]; then sep=""; fi
      echo "    \"$name\": \"$version\"$sep"
    done
    echo '  }'
    echo '}'
  } > "$PEERS_DIR/package.json"
  rm -f "$STAMP"
  npm install --prefix "$PEERS_DIR" --no-audit --no-fund --loglevel=error >&2
  echo "$WANTED" > "$STAMP"
fi

cat > "$PEERS_DIR/peers.env" <<ENV
# Written by .ci/install-peers.sh; source it.
MCP_PEERS_DIR=$PEERS_DIR
MCP_INSPECTOR_CLI=$PEERS_DIR/node_modules/@modelcontextprotocol/inspector-cli/build/index.js
MCP_INSPECTOR_CWD=$PEERS_DIR/node_modules
MCP_SERVER_EVERYTHING=$PEERS_DIR/node_modules/@modelcontextprotocol/server-everything/dist/index.js
MCP_CONFORMANCE=$PEERS_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js
MCP_SUPERGATEWAY=$PEERS_DIR/node_modules/supergateway/dist/index.js
ENV

for file in \
  "$PEERS_DIR/node_modules/@modelcontextprotocol/inspector-cli/build/index.js" \
  "$PEERS_DIR/node_modules/@modelcontextprotocol/server-everything/dist/index.js" \
  "$PEERS_DIR/node_modules/.bin/conformance" \
  "$PEERS_DIR/node_modules/supergateway/dist/index.js"; do
  if [[ ! -e $file ]]; then
    log "missing after install: $file"
    exit 1
  fi
done
echo "$PEERS_DIR"
