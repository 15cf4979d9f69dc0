#!/usr/bin/env python3
"""The first decision of each tool on a cold JVM (issue 16 goal 1): the demo session under the agent.

Needs a built tree (mvn -B verify, or `mvn -B package -DskipTests -pl demo-app,agent -am`).
Usage: python3 integration-tests/perf/first_decisions.py [runs] [agent.jar ...]
Plays demo-app's scripted session [runs] times (default 5) against the demo server under each agent jar
given (default: agent/target/mcp-policy-agent.jar), the jars interleaved run by run, so an older build can
be measured beside this one in the same run (build it from another checkout and pass its jar). For each
tool it reports the median over the runs of `took_us` on that tool's first decision line: the time the
engine took to decide, which on a cold JVM includes loading and linking whatever the rule runs.
"""
import os, re, statistics, subprocess, sys, tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEMO = os.path.join(ROOT, "demo-app", "target", "demo-app.jar")
POLICY = os.path.join(ROOT, "demo-app", "mcp-policy.json")
RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
JARS = [os.path.abspath(j) for j in sys.argv[2:]] or [os.path.join(ROOT, "agent", "target", "mcp-policy-agent.jar")]
LINE = re.compile(r"decision=\w+ tool=(\S+) .*took_us=(\d+)")


def first_decisions(jar):
    with tempfile.TemporaryDirectory(prefix="mcp-policy-first-") as work:
        log = os.path.join(work, "server.log")
        server = ["java", f"-javaagent:{jar}=policy={POLICY},admin=127.0.0.1:0", "-Duser.home=" + work, "-jar", DEMO]
        subprocess.run(["java", "-cp", DEMO, "dev.mcppolicy.demo.DemoClient", "--server-log", log, "--"] + server,
                       cwd=work, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
        first = {}
        with open(log) as f:
            for line in f:
                m = LINE.search(line)
                if m and m.group(1) not in first and "decision=HOLD" not in line:
                    first[m.group(1)] = int(m.group(2))
        return first


results = {jar: [] for jar in JARS}
for _ in range(RUNS):
    for jar in JARS:
        results[jar].append(first_decisions(jar))
print(f"first decision of each tool, took_us, median of {RUNS} runs (load average {os.getloadavg()[0]:.1f})")
tools = list(dict.fromkeys(t for runs in results.values() for run in runs for t in run))
print("| tool | " + " | ".join(os.path.relpath(j, ROOT) if j.startswith(ROOT) else j for j in JARS) + " |")
print("|---|" + "---|" * len(JARS))
for tool in tools:
    cells = []
    for jar in JARS:
        values = [run[tool] for run in results[jar] if tool in run]
        cells.append(f"{statistics.median(values):.0f}" if values else "-")
    print(f"| {tool} | " + " | ".join(cells) + " |")
# the first decision in the JVM is bimodal (README): each run's value, in run order
first_tool = tools[0] if tools else None
if first_tool:
    for jar in JARS:
        label = os.path.relpath(jar, ROOT) if jar.startswith(ROOT) else jar
        print(f"{first_tool} per run, {label}: " + ", ".join(str(run.get(first_tool, "-")) for run in results[jar]))
