#!/usr/bin/env python3
"""Start-up and per-call cost of the agent (issue 3 closing note).

Needs a built tree (mvn -B verify). Usage: python3 integration-tests/perf/measure.py [runs] [calls]
(the figures in README come from `measure.py 9 60000`)
  1. hello world: wall time of `java -cp ... fixture.Hello`, with and without -javaagent
  2. time to `initialize`: spawn the SDK 2.1.0 fixture server (a Logback app) on stdio, send initialize,
     wait for the answer
  3. per-call latency of the echo tool over stdio (server-side decision and its Logback line), p50/p99
     over the last third of the calls (the rest is JIT warm-up); calls are back to back from one
     client; five alternating rounds each way
(The SDK 1.0.0 and 2.0.0 stdio fixtures stalled after 50-75 back-to-back calls from this script even
without the agent, so the latency run uses 2.1.0.)
"""
import json, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
AGENT = os.path.join(ROOT, "agent", "target", "mcp-policy-agent.jar")
FIX = os.path.join(ROOT, "integration-tests", "fixtures", "sdk-2.1.0", "target")
POLICY = '{"version":"1","default":"deny","tools":{"echo":{}}}'
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 9
CALLS = int(sys.argv[2]) if len(sys.argv) > 2 else 60000

work = tempfile.mkdtemp(prefix="mcp-policy-perf-")
with open(os.path.join(work, "mcp-policy.json"), "w") as f:
    f.write(POLICY)


def jvm(agent, cp, main, *args):
    cmd = ["java"]
    if agent:
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


def time_to_initialize(agent):
    start = time.perf_counter()
    proc = start_server(agent, FIX)
    rpc(proc, 1, "initialize", INIT)
    took = (time.perf_counter() - start) * 1000
    proc.kill()
    proc.wait()
    return took


def call_latencies(agent):
    proc = start_server(agent, FIX)
    rpc(proc, 1, "initialize", INIT)
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    samples = []
    for i in range(CALLS):
        start = time.perf_counter()
        answer = rpc(proc, 100 + i, "tools/call", {"name": "echo", "arguments": {"text": "x"}})
        samples.append((time.perf_counter() - start) * 1e6)
        assert not answer["result"].get("isError"), answer
    proc.kill()
    proc.wait()
    # keep the last third: on 2 cores the JIT is still compiling the call path (the SDK's, and the
    # agent's on top) for tens of thousands of calls, which is start-up cost, not per-call cost
    return sorted(samples[2 * CALLS // 3:])


def pct(values, p):
    return values[min(len(values) - 1, int(len(values) * p))]


print(f"load average before: {os.getloadavg()}")
print(f"java: {subprocess.run(['java', '-version'], capture_output=True, text=True).stderr.splitlines()[0]}; cores: {os.cpu_count()}")
base = []
with_agent = []
for _ in range(RUNS):
    base.append(hello(False))
    with_agent.append(hello(True))
b = summary("hello world, no agent (ms)", base)
a = summary("hello world, -javaagent (ms)", with_agent)
print(f"{'  added':48s} min {a[0] - b[0]:+8.1f}  median {a[1] - b[1]:+8.1f}")

base = []
with_agent = []
for _ in range(max(5, RUNS // 2 + 1)):
    base.append(time_to_initialize(False))
    with_agent.append(time_to_initialize(True))
b = summary("MCP 2.1.0 stdio time to initialize, no agent (ms)", base)
a = summary("MCP 2.1.0 stdio time to initialize, -javaagent (ms)", with_agent)
print(f"{'  added':48s} min {a[0] - b[0]:+8.1f}  median {a[1] - b[1]:+8.1f}")

# five rounds, alternating, so that a noisy moment on the box hits both sides
p50s = {False: [], True: []}
p99s = {False: [], True: []}
for round_ in range(5):
    for agent in (False, True):
        lat = call_latencies(agent)
        p50s[agent].append(pct(lat, 0.5))
        p99s[agent].append(pct(lat, 0.99))
        label = "-javaagent" if agent else "no agent"
        print(f"echo tools/call round trip over stdio, round {round_ + 1}, {label:10s} (us): p50 {pct(lat, 0.5):8.0f}"
              f"  p99 {pct(lat, 0.99):8.0f}  mean {statistics.mean(lat):8.0f}  (n={len(lat)})")
b50, a50 = statistics.median(p50s[False]), statistics.median(p50s[True])
b99, a99 = statistics.median(p99s[False]), statistics.median(p99s[True])
print(f"echo tools/call, median of the rounds (us): p50 {b50:.0f} -> {a50:.0f} ({a50 / b50:.2f}x), "
      f"p99 {b99:.0f} -> {a99:.0f} ({a99 / b99:.2f}x)")
