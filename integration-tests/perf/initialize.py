#!/usr/bin/env python3
"""Time to `initialize` of the SDK 2.1.0 stdio fixture server, with and without agents (issue 16, goal 3).

Needs a built tree (mvn -B verify). Usage:
    python3 integration-tests/perf/initialize.py [rounds] [agent.jar ...]
Each round starts the server once with no agent, once with an empty -javaagent (a premain that returns at
once: the floor of any agent), once with a no-op transformer -javaagent (the floor of any agent that weaves
classes as they load: see emptyagent.py), and once under each agent jar given (default: agent/target/mcp-policy-agent.jar;
pass an older build's jar beside it for a before/after from the same run), in that order, sends `initialize`
and reads the answer. For each setup it prints the median and min wall time from spawn to the answer and the
median CPU time of the whole process by then (user + system, from /proc), each also as the median of the
per-round differences to the server alone in the same round: on a loaded 2-core box the rounds drift, and
the paired difference cancels most of that drift; the median of the per-round wall ratios to the server alone
(the box's speed moves by up to 2x between hours here, and the added time with it: the ratio compares across
hours); and the paired wall and CPU over the no-op transformer, which is what the agent adds beyond the JVM's
class-file-load hook. For the agents it also prints the median CPU time of their
own threads (`mcp-policy-*`: start, install, policy loader, canary, reload), read with nanosecond precision
from each thread's /proc schedstat every 2 ms until the answer (they end before it): that figure moves with
the agent's own work and far less with the box's load than the process's. Those threads are read in rounds
of their own, after the timed ones: reading /proc every 2 ms keeps a core of a 2-core box busy enough to slow
the JVM it watches by a quarter, which inflated the wall figures of this script up to the eighth session.
"""
import json, os, statistics, subprocess, sys, tempfile, threading, time
import emptyagent

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIX = os.path.join(ROOT, "integration-tests", "fixtures", "sdk-2.1.0", "target")
CP = os.path.join(FIX, "classes") + os.pathsep + os.path.join(FIX, "lib", "*")
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 21
JARS = [os.path.abspath(j) for j in sys.argv[2:]] or [os.path.join(ROOT, "agent", "target", "mcp-policy-agent.jar")]
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "perf", "version": "1"}}}
TICKS = os.sysconf("SC_CLK_TCK")

work = tempfile.mkdtemp(prefix="mcp-policy-init-")
with open(os.path.join(work, "mcp-policy.json"), "w") as f:
    f.write('{"version":"1","default":"deny","tools":{"echo":{}}}')


def agent_threads(pid, done, seen):
    """Until `done`, the latest on-CPU nanoseconds of each of the process's `mcp-policy-*` threads, by thread id."""
    tasks = f"/proc/{pid}/task"
    while not done.is_set():
        try:
            for tid in os.listdir(tasks):
                try:
                    with open(f"{tasks}/{tid}/comm") as f:
                        if not f.read().startswith("mcp-policy"):
                            continue
                    with open(f"{tasks}/{tid}/schedstat") as f:
                        seen[tid] = int(f.read().split()[0])
                except OSError:
                    pass  # the thread ended meanwhile: its last reading stays
        except OSError:
            return
        time.sleep(0.002)


def initialize(options, watch=False):
    """Wall ms from spawn to the initialize answer, the process's CPU ms by then, and (`watch`) its agent threads' CPU ms."""
    started = time.perf_counter()
    proc = subprocess.Popen(["java"] + options + ["-cp", CP, "fixture.FixtureServer", "stdio"], cwd=work,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    done, seen = threading.Event(), {}
    poller = threading.Thread(target=agent_threads, args=(proc.pid, done, seen), daemon=True)
    if watch:
        poller.start()
    proc.stdin.write(json.dumps(INIT) + "\n")
    proc.stdin.flush()
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the server exited before answering")
        if line.startswith("{") and json.loads(line).get("id") == 1:
            break
    wall = (time.perf_counter() - started) * 1000
    with open(f"/proc/{proc.pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) * 1000 / TICKS
    done.set()
    if watch:
        poller.join()
    proc.kill()
    proc.wait()
    return wall, cpu, sum(seen.values()) / 1e6


results = emptyagent.interleaved(work, ROOT, JARS, ROUNDS, initialize)
WATCHED = max(5, ROUNDS // 4)
threads = emptyagent.interleaved(work, ROOT, JARS, WATCHED, lambda options: initialize(options, watch=True))

alone = results["no agent"]
print(f"time to initialize, SDK 2.1.0 stdio fixture, {ROUNDS} rounds, the agent threads' CPU from {WATCHED} more "
      f"(load average {os.getloadavg()[0]:.1f})")
print("| setup | wall median (ms) | wall min (ms) | CPU median (ms) | added wall, paired median | added CPU, paired median "
      "| wall ratio to no agent, paired median | wall over the no-op transformer | CPU over the no-op transformer "
      "| agent threads' CPU, median (ms) |")
print("|---|---|---|---|---|---|---|---|---|---|")
floor = results[emptyagent.NO_OP_TRANSFORMER]
for name, runs in results.items():
    wall_added = statistics.median(r[0] - a[0] for r, a in zip(runs, alone))
    cpu_added = statistics.median(r[1] - a[1] for r, a in zip(runs, alone))
    wall_ratio = statistics.median(r[0] / a[0] for r, a in zip(runs, alone))
    wall_over = statistics.median(r[0] - f[0] for r, f in zip(runs, floor))
    cpu_over = statistics.median(r[1] - f[1] for r, f in zip(runs, floor))
    print(f"| {name} | {statistics.median(r[0] for r in runs):.0f} | {min(r[0] for r in runs):.0f} | "
          f"{statistics.median(r[1] for r in runs):.0f} | {wall_added:+.0f} | {cpu_added:+.0f} | {wall_ratio:.3f} | {wall_over:+.0f} | "
          f"{cpu_over:+.0f} | {statistics.median(r[2] for r in threads[name]):.1f} |")
