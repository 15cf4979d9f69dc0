package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

/** Where {@code .ci/install-peers.sh} put the third-party MCP peers (the TypeScript SDK, the reference servers). */
final class TypeScriptPeers {
    private TypeScriptPeers() {
    }

    /** {@code $MCP_PEERS_DIR}, else {@code ~/.cache/mcp-peers}, as {@code .ci/install-peers.sh} chooses. */
    static Path dir() {
        String dir = System.getenv("MCP_PEERS_DIR");
        return dir != null && !dir.isBlank() ? Path.of(dir) : Path.of(System.getProperty("user.home"), ".cache", "mcp-peers");
    }

    /** The TypeScript MCP SDK's package directory; fails the test when the peers are not installed. */
    static Path sdk() {
        Path sdk = dir().resolve("node_modules/@modelcontextprotocol/sdk");
        assertThat(sdk.resolve("dist/esm/client/stdio.js")).as("the TypeScript SDK in the peers directory; install the peers"
                + " first: bash .ci/install-peers.sh").exists();
        return sdk;
    }
}
