package dev.mcppolicy.demo.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the third-party MCP peers and the agent jar are. The peers come from the directory that
 * {@code .ci/install-peers.sh} fills ({@code $MCP_PEERS_DIR}, else {@code $HOME/.cache/mcp-peers}), which
 * names each of them in {@code peers.env}. Installing them is not a test's job: a test fails and says
 * how.
 */
public final class Peers {
    public static final String INSTALL_HINT =
            "; install the third-party peers first: bash .ci/install-peers.sh (MCP_PEERS_DIR chooses where)";

    private Peers() {
    }

    /** The peers directory. */
    public static Path dir() {
        String dir = System.getenv("MCP_PEERS_DIR");
        return dir != null && !dir.isBlank() ? Path.of(dir)
                : Path.of(System.getProperty("user.home"), ".cache", "mcp-peers");
    }

    /**
     * The path {@code peers.env} gives for {@code key} ({@code MCP_CONFORMANCE}, {@code MCP_INSPECTOR_CLI},
     * {@code MCP_INSPECTOR_CWD}, {@code MCP_SERVER_EVERYTHING}); it must exist.
     */
    public static Path path(String key) throws IOException {
        Path env = dir().resolve("peers.env");
        if (!Files.isRegularFile(env)) {
            throw new AssertionError("no " + env + INSTALL_HINT);
        }
        String prefix = key + "=";
        Path path = Files.readAllLines(env).stream()
                .filter(line -> line.startsWith(prefix))
                .map(line -> Path.of(line.substring(prefix.length()).trim()))
                .findFirst()
                .orElseThrow(() -> new AssertionError(env + " names no " + key + INSTALL_HINT));
        if (!Files.exists(path)) {
            throw new AssertionError("the peer " + key + " is missing: " + path + INSTALL_HINT);
        }
        return path;
    }

    /** The shaded agent jar the build made ({@code agent.jar}, set by failsafe). */
    public static Path agentJar() {
        Path jar = Path.of(System.getProperty("agent.jar", "../agent/target/mcp-policy-agent.jar")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new AssertionError("no agent jar at " + jar + "; build it first: mvn -B -pl agent package");
        }
        return jar;
    }

    /** {@code -javaagent:AGENT=policy=POLICY}. */
    public static String javaagent(Path policy) {
        return "-javaagent:" + agentJar() + "=policy=" + policy.toAbsolutePath();
    }

    /** A directory of its own for one test class's files, under {@code target/peers}. */
    public static Path workDir(String name) throws IOException {
        Path dir = Path.of(System.getProperty("peers.work", "target/peers")).resolve(name).toAbsolutePath();
        Files.createDirectories(dir);
        return dir;
    }
}
