#!/usr/bin/env python3
"""Start-up and per-call cost of the agent (issue 3 closing note).

Needs a built tree (mvn -B verify). Usage: python3 integration-tests/perf/measure.py [runs] [calls] [rounds]
(the figures in README come from `measure.py 9 60000`; the gateway rows from `measure.py 5 12000 5`)
  1. hello world: wall time of `java -cp ... fixture.Hello`, with and without -javaagent, and with an empty
     -javaagent (a premain that returns at once, built here with javac): the floor of any Java agent
  2. time to `initialize`: spawn the SDK 2.1.0 fixture server (a Logback app) on stdio, send initialize,
     wait for the answer; then the classes loaded by then (-Xlog:class+load, one more run each)
  3. per-call latency of the echo tool (server-side decision and its Logback line), p50/p99 over the
     last third of the calls (the rest is JIT warm-up); calls are back to back from one client (this
     script, speaking JSON-RPC itself, over stdio or streamable HTTP); [rounds] rounds (default 5), each
     running every setup once, in an order that shifts by one each round; and p50 of calls 1,000-5,000 (goal 2
     of issue 16: the steady state reached early, within noise of the server alone). The setups: the server alone
     (the baseline), the server under the agent, and the gateway a user would otherwise put in front of
     the same server (issue 16): relay.py (parses and re-serializes each message, decides nothing: the
     floor of any policy proxy) on stdio, and supergateway (npm, stateful stdio -> streamable HTTP; from
     .ci/install-peers.sh, found through $MCP_PEERS_DIR or ~/.cache/mcp-peers; skipped when absent), with
     the server's own streamable-HTTP transport (no proxy) as the HTTP baseline. The agent also runs with
     log=off: the same decision without the Logback line the app writes for it. Each row is reported as
     a ratio to the server alone over stdio from the same run. The HTTP client opens a new connection
     when Tomcat ends one (after 100 requests); that reconnect is in its samples, as in any client's.
(The SDK 1.0.0 and 2.0.0 stdio fixtures stalled after 50-75 back-to-back calls from this script even
without the agent, so the latency run uses 2.1.0.)
"""
import http.client, json, os, shlex, signal, socket, statistics, subprocess, sys, tempfile, time
import emptyagent

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# MCP_POLICY_AGENT_JAR: another build of the agent (an older commit's, for a before/after from the same commands)
AGENT = os.environ.get("MCP_POLICY_AGENT_JAR", os.path.join(ROOT, "agent", "target", "mcp-policy-agent.jar"))
FIX = os.path.join(ROOT, "integration-tests", "fixtures", "sdk-2.1.0", "target")
POLICY = '{"version":"1","default":"deny","tools":{"echo":{}}}'
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 9
CALLS = int(sys.argv[2]) if len(sys.argv) > 2 else 60000
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 5
RELAY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "relay.py")
PEERS = os.environ.get("MCP_PEERS_DIR", os.path.join(os.path.expanduser("~"), ".cache", "mcp-peers"))
SUPERGATEWAY = os.path.join(PEERS, "node_modules", "supergateway", "dist", "index.js")

work = tempfile.mkdtemp(prefix="mcp-policy-perf-")
with open(os.path.join(work, "mcp-policy.json"), "w") as f:
    f.write(POLICY)


EMPTY_AGENT = None  # built by emptyagent.build before the measurements


def jvm(agent, cp, main, *args):
    cmd = ["java"]
    if agent == "empty":
        cmd.append("-javaagent:" + EMPTY_AGENT)
    elif agent == "log=off":
        cmd.append("-javaagent:" + AGENT + "=log=off")
    elif agent:
        cmd.append("-javaagent:" + AGENT)
    return cmd + ["-cp", cp, main] + list(args)


def summary(label, values):
    values = sorted(values)
    print(f"{label:48s} min {values[0]:8.1f}  median {statistics.median(values):8.1f}  (n={len(values)})")
    return values[0], statistics.median(values)


def hello(agent):
    start = time.perf_counter()
    subprocess.run(jvm(agent, os.path.join(FIX, "classes"), "fixture.Hello"), cwd=work, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def start_server(agent, fixture):
    cp = os.path.join(fixture, "classes") + os.pathsep + os.path.join(fixture, "lib", "*")
    return subprocess.Popen(jvm(agent, cp, "fixture.FixtureServer", "stdio"), cwd=work, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)


def rpc(proc, id_, method, params):
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": params}) + "\n")
    proc.stdin.flush()
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("server exited")
        msg = json.loads(line)
        if msg.get("id") == id_:
            return msg


INIT = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "perf", "version": "1"}}


def time_to_initialize(agent, jvm_options=()):
    start = time.perf_counter()
    cp = os.path.join(FIX, "classes") + os.pathsep + os.path.join(FIX, "lib", "*")
    command = jvm(agent, cp, "fixture.FixtureServer", "stdio")
    proc = subprocess.Popen(command[:1] + list(jvm_options) + command[1:], cwd=work, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    rpc(proc, 1, "initialize", INIT)
    took = (time.perf_counter() - start) * 1000
    proc.kill()
    proc.wait()
    return took


def classes_at_initialize(agent):
    """Classes loaded when the initialize answer is read (the log is cut there: the JVM is killed at once)."""
    log = os.path.join(work, f"classes-{bool(agent)}.log")
    time_to_initialize(agent, ["-Xlog:class+load=info:file=" + log])
    with open(log) as f:
        lines = f.read().splitlines()
    ours = sum(1 for l in lines if "mcp-policy-agent" in l or "dev.mcppolicy" in l)
    return len(lines), ours


def server_command(agent, transport="stdio"):
    return jvm(agent, os.path.join(FIX, "classes") + os.pathsep + os.path.join(FIX, "lib", "*"), "fixture.FixtureServer", transport)


class Stdio:
    """A client of a process that speaks MCP on its stdin/stdout."""

    def __init__(self, command):
        self.proc = subprocess.Popen(command, cwd=work, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def call(self, id_, method, params):
        return rpc(self.proc, id_, method, params)

    def notify(self, method):
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}) + "\n")
        self.proc.stdin.flush()

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class NoDelayConnection(http.client.HTTPConnection):
    """TCP_NODELAY, as HTTP clients set it (Python's does not): no Nagle delay in the client's numbers."""

    def connect(self):
        super().connect()
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class StreamableHttp:
    """A client of a streamable-HTTP MCP endpoint: one keep-alive connection, one POST per message."""

    def __init__(self, port, path="/mcp"):
        self.port, self.path, self.session = port, path, None
        self.conn = NoDelayConnection("127.0.0.1", port, timeout=60)

    def post(self, message):
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if self.session:
            headers["Mcp-Session-Id"] = self.session
            headers["MCP-Protocol-Version"] = INIT["protocolVersion"]
        try:
            self.conn.request("POST", self.path, json.dumps(message), headers)
            response = self.conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # Tomcat ends a keep-alive connection after 100 requests (maxKeepAliveRequests) without saying so
            # on the last answer: a new connection, as a client's pool would open
            self.conn.close()
            self.conn.request("POST", self.path, json.dumps(message), headers)
            response = self.conn.getresponse()
        body = response.read().decode()
        self.session = response.getheader("Mcp-Session-Id") or self.session
        if response.status >= 300:
            raise RuntimeError(f"HTTP {response.status}: {body}")
        return response.getheader("Content-Type", ""), body

    def call(self, id_, method, params):
        kind, body = self.post({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})
        if kind.startswith("text/event-stream"):
            for line in body.splitlines():
                if line.startswith("data:"):
                    msg = json.loads(line[5:])
                    if msg.get("id") == id_:
                        return msg
            raise RuntimeError("no answer in the event stream: " + body)
        return json.loads(body)

    def notify(self, method):
        self.post({"jsonrpc": "2.0", "method": method})

    def close(self):
        self.conn.close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def await_port(port, proc, deadline_s=60):
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"exited with {proc.returncode} before listening on {port}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listening on {port} after {deadline_s} s")


class HttpServer(StreamableHttp):
    """A process serving streamable HTTP on a port of its own (the fixture server, supergateway)."""

    def __init__(self, command, port):
        self.proc = subprocess.Popen(command, cwd=work, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        await_port(port, self.proc)
        super().__init__(port)

    def close(self):
        super().close()
        # supergateway stops the server it spawned on SIGTERM
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


class FixtureHttp(StreamableHttp):
    """The fixture server on its own streamable-HTTP transport (no proxy), on a port it picks and prints."""

    def __init__(self):
        log = tempfile.mktemp(dir=work, suffix=".stderr")
        # its stderr (a line per call) goes to a file that only this reads
        with open(log, "w") as err:
            self.proc = subprocess.Popen(server_command(False, "streamable"), cwd=work, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + 60
        while True:
            with open(log) as f:
                listening = [l for l in f if l.startswith("FIXTURE LISTENING ")]
            if listening:
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the fixture server did not serve: " + open(log).read())
            time.sleep(0.05)
        super().__init__(int(listening[0].split()[2]))

    def close(self):
        super().close()
        self.proc.kill()
        self.proc.wait()


def supergateway():
    port = free_port()
    return HttpServer(["node", SUPERGATEWAY, "--stdio", shlex.join(server_command(False)), "--outputTransport",
                       "streamableHttp", "--stateful", "--port", str(port), "--logLevel", "none"], port)


SETUPS = [
    ("server alone, stdio", lambda: Stdio(server_command(False))),
    ("server under the agent, stdio", lambda: Stdio(server_command(True))),
    ("server under the agent, log=off (no line), stdio", lambda: Stdio(server_command("log=off"))),
    ("relay.py (parse + re-serialize) -> server, stdio", lambda: Stdio(["python3", RELAY] + server_command(False))),
    ("server alone, its own streamable HTTP", FixtureHttp),
]
if os.path.isfile(SUPERGATEWAY):
    with open(os.path.join(os.path.dirname(os.path.dirname(SUPERGATEWAY)), "package.json")) as f:
        SG_VERSION = json.load(f)["version"]
    SETUPS.append((f"supergateway {SG_VERSION} (streamable HTTP) -> server, stdio", supergateway))
else:
    print(f"supergateway not found at {SUPERGATEWAY} (run .ci/install-peers.sh): its row is skipped")


def call_latencies(setup, early=None):
    client = setup()
    try:
        client.call(1, "initialize", INIT)
        client.notify("notifications/initialized")
        samples = []
        for i in range(CALLS):
            start = time.perf_counter()
            answer = client.call(100 + i, "tools/call", {"name": "echo", "arguments": {"text": "x"}})
            samples.append((time.perf_counter() - start) * 1e6)
            assert not answer["result"].get("isError"), answer
    finally:
        client.close()
    if early is not None:
        early.extend(sorted(samples[1000:5000]))
    # keep the last third: on 2 cores the JIT is still compiling the call path (the SDK's, and the
    # agent's on top) for tens of thousands of calls, which is start-up cost, not per-call cost
    return sorted(samples[2 * CALLS // 3:])


def pct(values, p):
    return values[min(len(values) - 1, int(len(values) * p))]


print(f"load average before: {os.getloadavg()}")
print(f"java: {subprocess.run(['java', '-version'], capture_output=True, text=True).stderr.splitlines()[0]}; cores: {os.cpu_count()}")
EMPTY_AGENT = emptyagent.build(work)
base = []
with_agent = []
empty = []
for _ in range(RUNS):
    base.append(hello(False))
    empty.append(hello("empty"))
    with_agent.append(hello(True))
b = summary("hello world, no agent (ms)", base)
e = summary("hello world, an empty -javaagent (ms)", empty)
a = summary("hello world, -javaagent (ms)", with_agent)
print(f"{'  added by any agent (the empty one)':48s} min {e[0] - b[0]:+8.1f}  median {e[1] - b[1]:+8.1f}")
print(f"{'  added':48s} min {a[0] - b[0]:+8.1f}  median {a[1] - b[1]:+8.1f}")

base = []
with_agent = []
for _ in range(max(5, RUNS // 2 + 1)):
    base.append(time_to_initialize(False))
    with_agent.append(time_to_initialize(True))
b = summary("MCP 2.1.0 stdio time to initialize, no agent (ms)", base)
a = summary("MCP 2.1.0 stdio time to initialize, -javaagent (ms)", with_agent)
print(f"{'  added':48s} min {a[0] - b[0]:+8.1f}  median {a[1] - b[1]:+8.1f}")
(n0, _), (n1, ours) = classes_at_initialize(False), classes_at_initialize(True)
print(f"classes loaded at the initialize answer: {n0} without the agent, {n1} with it (+{n1 - n0}, {ours} of them the agent's own)")

# rounds interleaved, every setup once per round, the order shifting by one each round, so that a noisy
# moment on the box hits every setup
p50s = {label: [] for label, _ in SETUPS}
early = {label: [] for label, _ in SETUPS}
p99s = {label: [] for label, _ in SETUPS}
for round_ in range(ROUNDS):
    for k in range(len(SETUPS)):
        label, setup = SETUPS[(round_ + k) % len(SETUPS)]
        lat = call_latencies(setup, early[label] if CALLS >= 5000 else None)
        p50s[label].append(pct(lat, 0.5))
        p99s[label].append(pct(lat, 0.99))
        print(f"echo tools/call round trip, round {round_ + 1}, {label:56s} (us): p50 {pct(lat, 0.5):8.0f}"
              f"  p99 {pct(lat, 0.99):8.0f}  mean {statistics.mean(lat):8.0f}  (n={len(lat)})", flush=True)
base = SETUPS[0][0]
b50, b99 = statistics.median(p50s[base]), statistics.median(p99s[base])
a50, a99 = statistics.median(p50s[SETUPS[1][0]]), statistics.median(p99s[SETUPS[1][0]])
print(f"echo tools/call, median of the rounds (us): p50 {b50:.0f} -> {a50:.0f} ({a50 / b50:.2f}x), "
      f"p99 {b99:.0f} -> {a99:.0f} ({a99 / b99:.2f}x)")
print(f"\necho tools/call, warm (last {CALLS - 2 * CALLS // 3} of {CALLS} calls), median of {ROUNDS} interleaved rounds;"
      f" ratio to the {base}:")
print(f"| setup | p50 (us) | p99 (us) | p50 / baseline | p99 / baseline |")
print(f"|---|---|---|---|---|")
for label, _ in SETUPS:
    m50, m99 = statistics.median(p50s[label]), statistics.median(p99s[label])
    print(f"| {label} | {m50:.0f} | {m99:.0f} | {m50 / b50:.2f}x | {m99 / b99:.2f}x |")
if CALLS >= 5000:
    print("\ncalls 1,000-5,000 of each run (issue 16, goal 2: the steady state reached early), all rounds pooled:")
    for label, _ in SETUPS[:3]:
        values = sorted(early[label])
        print(f"  {label:40s} p50 {pct(values, 0.5):8.0f}  p90 {pct(values, 0.9):8.0f}  (n={len(values)})")
    e0, e1 = pct(sorted(early[SETUPS[0][0]]), 0.5), pct(sorted(early[SETUPS[1][0]]), 0.5)
    e2 = pct(sorted(early[SETUPS[2][0]]), 0.5)
    print(f"  p50 ratio, agent / server alone: {e1 / e0:.2f}x; with log=off: {e2 / e0:.2f}x")
print(f"load average after: {os.getloadavg()}")
