"""The floors of any Java agent, for the perf scripts, built with javac: an empty agent (a premain that returns at
once) and a no-op transformer agent (a premain that registers a transformer returning null for every class).

The second is the floor of any agent that weaves classes as they load, as this one does (issue 16): once a
transformer is registered, the JVM posts its class-file-load hook for every class loaded after, and the JDK's
java.instrument copies each class's bytes into a new Java array and calls into Java with them, whatever the
transformer then does; classes from the CDS archive are first read back from the runtime image for it."""
import os, subprocess

EMPTY = "empty -javaagent"
NO_OP_TRANSFORMER = "no-op transformer -javaagent"

SOURCES = {
    "EmptyAgent": "package perf; public final class EmptyAgent {"
                  " public static void premain(String args, java.lang.instrument.Instrumentation inst) { } }",
    "NoOpTransformerAgent": "package perf; public final class NoOpTransformerAgent {"
                            " public static void premain(String args, java.lang.instrument.Instrumentation inst) {"
                            " inst.addTransformer(new java.lang.instrument.ClassFileTransformer() { }, true); } }",
}


def build(work, agent="EmptyAgent"):
    """Builds the agent `agent` (a key of SOURCES) under the folder `work` (once) and returns its jar's path."""
    jar = os.path.join(work, agent + ".jar")
    if os.path.exists(jar):
        return jar
    classes = os.path.join(work, agent)
    src = os.path.join(classes, "perf")
    os.makedirs(src)
    with open(os.path.join(src, agent + ".java"), "w") as f:
        f.write(SOURCES[agent])
    with open(os.path.join(classes, "manifest.txt"), "w") as f:
        # as the agent's own manifest has it: a transformer that may retransform
        f.write(f"Premain-Class: perf.{agent}\nCan-Retransform-Classes: true\n")
    subprocess.run(["javac", "-d", classes, os.path.join(src, agent + ".java")], check=True)
    subprocess.run(["jar", "cfm", jar, os.path.join(classes, "manifest.txt"), "-C", classes, "perf"], check=True)
    return jar


def interleaved(work, root, jars, rounds, measure):
    """Runs `measure(options)` `rounds` times for each setup, interleaved round by round: no agent, the empty agent,
    the no-op transformer agent (both built under `work`), then each agent jar (named relative to `root`). Returns
    each setup's results by name."""
    setups = {"no agent": [], EMPTY: ["-javaagent:" + build(work)],
              NO_OP_TRANSFORMER: ["-javaagent:" + build(work, "NoOpTransformerAgent")]}
    for jar in jars:
        setups[os.path.relpath(jar, root) if jar.startswith(root) else jar] = ["-javaagent:" + jar]
    results = {name: [] for name in setups}
    for _ in range(rounds):
        for name, options in setups.items():
            results[name].append(measure(options))
    return results
