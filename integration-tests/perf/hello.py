#!/usr/bin/env python3
"""JVM start of a hello world (no MCP) with and without agents, interleaved (issue 16: hello world added <= 80 ms).

Needs a built tree (mvn -B verify). Usage:
    python3 integration-tests/perf/hello.py [rounds] [agent.jar ...]
Each round runs `java -cp <fixture classes> fixture.Hello` once with no agent, once with an empty -javaagent (the
floor of any agent) and once under each agent jar given (default: agent/target/mcp-policy-agent.jar; pass an
older build's jar beside it for a before/after from the same rounds), and prints for each setup the median and
min wall time and the median of its per-round difference to no agent.
"""
import os, statistics, subprocess, sys, tempfile, time
import emptyagent

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLASSES = os.path.join(ROOT, "integration-tests", "fixtures", "sdk-2.1.0", "target", "classes")
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 21
JARS = [os.path.abspath(j) for j in sys.argv[2:]] or [os.path.join(ROOT, "agent", "target", "mcp-policy-agent.jar")]

work = tempfile.mkdtemp(prefix="mcp-policy-hello-")
setups = {"no agent": [], "empty -javaagent": ["-javaagent:" + emptyagent.build(work)]}
for jar in JARS:
    setups[os.path.relpath(jar, ROOT) if jar.startswith(ROOT) else jar] = ["-javaagent:" + jar]
results = {name: [] for name in setups}
for _ in range(ROUNDS):
    for name, options in setups.items():
        started = time.perf_counter()
        subprocess.run(["java"] + options + ["-cp", CLASSES, "fixture.Hello"], cwd=work, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        results[name].append((time.perf_counter() - started) * 1000)

alone = results["no agent"]
print(f"hello world, {ROUNDS} interleaved rounds (load average {os.getloadavg()[0]:.1f})")
print("| setup | median (ms) | min (ms) | added, paired median (ms) |")
print("|---|---|---|---|")
for name, runs in results.items():
    added = statistics.median(r - a for r, a in zip(runs, alone))
    print(f"| {name} | {statistics.median(runs):.1f} | {min(runs):.1f} | {added:+.1f} |")
