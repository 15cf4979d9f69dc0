"""The floor of any Java agent, for the perf scripts: a jar whose premain returns at once, built with javac."""
import os, subprocess


def build(work):
    """Builds the empty agent under the folder `work` (once) and returns its jar's path."""
    jar = os.path.join(work, "empty-agent.jar")
    if os.path.exists(jar):
        return jar
    src = os.path.join(work, "empty", "perf")
    os.makedirs(src)
    with open(os.path.join(src, "EmptyAgent.java"), "w") as f:
        f.write("package perf; public final class EmptyAgent {"
                " public static void premain(String args, java.lang.instrument.Instrumentation inst) { } }")
    with open(os.path.join(work, "empty", "manifest.txt"), "w") as f:
        f.write("Premain-Class: perf.EmptyAgent\n")
    subprocess.run(["javac", "-d", os.path.join(work, "empty"), os.path.join(src, "EmptyAgent.java")], check=True)
    subprocess.run(["jar", "cfm", jar, os.path.join(work, "empty", "manifest.txt"), "-C", os.path.join(work, "empty"),
                    "perf/EmptyAgent.class"], check=True)
    return jar


def interleaved(work, root, jars, rounds, measure):
    """Runs `measure(options)` `rounds` times for each setup, interleaved round by round: no agent, the empty agent
    (built under `work`), then each agent jar (named relative to `root`). Returns each setup's results by name."""
    setups = {"no agent": [], "empty -javaagent": ["-javaagent:" + build(work)]}
    for jar in jars:
        setups[os.path.relpath(jar, root) if jar.startswith(root) else jar] = ["-javaagent:" + jar]
    results = {name: [] for name in setups}
    for _ in range(rounds):
        for name, options in setups.items():
            results[name].append(measure(options))
    return results
