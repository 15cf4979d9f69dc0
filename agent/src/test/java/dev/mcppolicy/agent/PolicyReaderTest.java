package dev.mcppolicy.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snapshot keeps the policy's text as read, whose hash is the policy's: what /api/policy shows. */
class PolicyReaderTest {
    @Test
    void aSnapshotKeepsTheTextItWasBuiltFromAtStartAndOnAReread(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("mcp-policy.yaml");
        String first = "version: '1'\n# a comment stays\ndefault: deny\n";
        Files.writeString(file, first);
        PolicySnapshot read = PolicyReader.read(file, "", false, Clock.systemUTC());
        assertThat(read.source()).isEqualTo(first);
        assertThat(read.engine().policy().sha256()).isEqualTo(CanonicalJson.sha256Hex(first.getBytes(StandardCharsets.UTF_8)));

        String second = "version: '1'\ndefault: allow\n";
        PolicySnapshot reread = PolicyReader.reread(file, second.getBytes(StandardCharsets.UTF_8), read, Clock.systemUTC());
        assertThat(reread.source()).isEqualTo(second);
        assertThat(PolicyReader.reread(file, "version: 2".getBytes(StandardCharsets.UTF_8), read, Clock.systemUTC()).source())
                .as("an invalid version is not in force").isNull();
        assertThat(PolicyReader.read(dir.resolve("missing.json"), "", false, Clock.systemUTC()).source()).isNull();
    }
}
