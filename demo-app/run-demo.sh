#!/usr/bin/env bash
# The demo in one command, from the repository root:
#
#   bash demo-app/run-demo.sh          # the client starts the server over stdio (default)
#   bash demo-app/run-demo.sh --http   # the server listens on 127.0.0.1, the client connects over HTTP
#
# Builds the demo app (and the policy agent, when its module produces a jar), starts the sandbox MCP
# server with -javaagent:mcp-policy-agent.jar and demo-app/mcp-policy.json, plays the scripted agent
# session against it, then prints the server's own log, where the agent writes one line per decision.
# The agent's admin endpoint is on (a free loopback port, a random token in a file only you can read):
# the client plays the person who approves one held background task and denies another through it.
# Act 2 (a rug pull): a client app under the agent with its own policy (demo-app/mcp-client-policy.json, pin: true)
# starts a server that swaps read_file's description once trusted; the app is never handed the poisoned tool.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

TRANSPORT=stdio
case "${1:-}" in
  "") ;;
  --http) TRANSPORT=http ;;
  *) echo "usage: bash demo-app/run-demo.sh [--http]" >&2; exit 2 ;;
esac

JAVA=java
if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then JAVA=$JAVA_HOME/bin/java; fi
DEMO_JAR=$ROOT/demo-app/target/demo-app.jar
AGENT_JAR=$ROOT/agent/target/mcp-policy-agent.jar
POLICY=$ROOT/demo-app/mcp-policy.json
SERVER_LOG=$ROOT/demo-app/target/demo-server.log

# Maven 3.8 prints bare colour resets even in batch mode; only its messages are kept.
build() { mvn -B -q "$@" package -DskipTests 2>&1 | sed -e 's/\x1b\[0m//g'; }

echo "[demo] building demo-app ..."
build -pl demo-app -am
echo "[demo] building the agent ..."
if ! build -pl agent -am; then
  echo "[demo] the agent module did not build (output above)."
fi

SERVER=("$JAVA")
if [[ -f "$AGENT_JAR" ]]; then
  SERVER+=("-javaagent:$AGENT_JAR=policy=$POLICY,admin=127.0.0.1:0")
  echo "[demo] the server runs under the policy agent: -javaagent:${AGENT_JAR#"$ROOT"/}=policy=${POLICY#"$ROOT"/},admin=127.0.0.1:0"
else
  echo "[demo] NOTE: ${AGENT_JAR#"$ROOT"/} is not built yet, so the server runs WITHOUT the policy agent:"
  echo "[demo]       every call below reaches the tools, and the server log shows no decision lines."
fi
SERVER+=(-jar "$DEMO_JAR")
CLIENT=("$JAVA" -cp "$DEMO_JAR" dev.mcppolicy.demo.DemoClient)
: > "$SERVER_LOG"
echo

status=0
if [[ $TRANSPORT == stdio ]]; then
  "${CLIENT[@]}" --server-log "$SERVER_LOG" -- "${SERVER[@]}" || status=$?
else
  "${SERVER[@]}" --http 0 2> "$SERVER_LOG" &
  server_pid=$!
  trap 'kill "$server_pid" 2>/dev/null || true' EXIT
  url=""
  for _ in $(seq 1 300); do
    url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$SERVER_LOG" | head -1 || true)
    if [[ -n $url ]] || ! kill -0 "$server_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  if [[ -z $url ]]; then
    echo "[demo] the server did not start listening; its log:"; cat "$SERVER_LOG"; exit 1
  fi
  admin=()
  line=$(grep -m1 '^\[mcp-policy\] admin: http' "$SERVER_LOG" || true)
  if [[ $line =~ admin:\ (http://[^ ]+/)\ \(loopback\ only\;\ token\ in\ ([^ ]+) ]]; then
    admin=(--admin "${BASH_REMATCH[1]}" --admin-token-file "${BASH_REMATCH[2]}")
  fi
  "${CLIENT[@]}" "${admin[@]}" --url "$url" || status=$?
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
fi

echo
echo "== The server's log (its stderr; the agent's decision lines appear here) =="
cat "$SERVER_LOG"

if [[ -f "$AGENT_JAR" ]]; then
  echo
  CLIENT_POLICY=$ROOT/demo-app/mcp-client-policy.json
  echo "[demo] act 2: the client app runs under the agent: -javaagent:${AGENT_JAR#"$ROOT"/}=policy=${CLIENT_POLICY#"$ROOT"/}"
  echo "[demo]        (its stderr follows its output: the agent's pins, its WARN with both hashes, its decision lines)"
  act2_err=$ROOT/demo-app/target/demo-act2.err
  "$JAVA" "-javaagent:$AGENT_JAR=policy=$CLIENT_POLICY" -cp "$DEMO_JAR" dev.mcppolicy.demo.RugPullClient 2> "$act2_err" || status=$?
  echo
  echo "== The client app's log in act 2 (its stderr: the agent's lines; the server's marked [server]) =="
  cat "$act2_err"
fi
exit "$status"
