#!/usr/bin/env python3
"""JVM start of a hello world (no MCP) with and without agents, interleaved (issue 16: hello world added <= 80 ms).

Needs a built tree (mvn -B verify). Usage:
    python3 integration-tests/perf/hello.py [rounds] [agent.jar ...]
Each round runs `java -cp <fixture classes> fixture.Hello` once with no agent, once with an empty -javaagent (the
floor of any agent), once with a no-op transformer -javaagent (the floor of any agent that weaves classes as they
load: see emptyagent.py) and once under each agent jar given (default: agent/target/mcp-policy-agent.jar; pass an
older build's jar beside it for a before/after from the same rounds), and prints for each setup the median and
min wall time and the medians of its per-round differences to no agent and to the no-op transformer.
"""
import os, statistics, subprocess, sys, tempfile, time
from emptyagent import interleaved, NO_OP_TRANSFORMER

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLASSES = os.path.join(ROOT, "integration-tests", "fixtures", "sdk-2.1.0", "target", "classes")
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 21
JARS = [os.path.abspath(j) for j in sys.argv[2:]] or [os.path.join(ROOT, "agent", "target", "mcp-policy-agent.jar")]

work = tempfile.mkdtemp(prefix="mcp-policy-hello-")


def hello(options):
    """Wall ms of one hello world."""
    started = time.perf_counter()
    subprocess.run(["java"] + options + ["-cp", CLASSES, "fixture.Hello"], cwd=work, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - started) * 1000


results = interleaved(work, ROOT, JARS, ROUNDS, hello)

alone = results["no agent"]
print(f"hello world, {ROUNDS} interleaved rounds (load average {os.getloadavg()[0]:.1f})")
print("| setup | median (ms) | min (ms) | added, paired median (ms) | over the no-op transformer, paired median (ms) |")
print("|---|---|---|---|---|")
floor = results[NO_OP_TRANSFORMER]
for name, runs in results.items():
    added = statistics.median(r - a for r, a in zip(runs, alone))
    over = statistics.median(r - f for r, f in zip(runs, floor))
    print(f"| {name} | {statistics.median(runs):.1f} | {min(runs):.1f} | {added:+.1f} | {over:+.1f} |")
