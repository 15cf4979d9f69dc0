package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A JVM without the MCP SDK: the agent says who it is and otherwise does nothing at all. */
class NoSdkIT {
    @Test
    void isAHarmlessNoOpWithoutTheMcpSdk() throws Exception {
        Path dir = Fixtures.workDir("NoSdkIT");
        Files.writeString(dir.resolve("mcp-policy.json"), Policies.SERVER);
        try (ForkedJvm jvm = ForkedJvm.start("no-sdk", dir, List.of(Fixtures.javaagent("")), Fixtures.classesOnly("2.1.0"),
                "fixture.Hello", List.of())) {
            assertThat(jvm.waitForExit()).as(jvm.dump()).isZero();
            assertThat(jvm.stdout()).containsExactly("hello from a JVM without MCP");
            // the policy is only read once an MCP class appears: none does here
            assertThat(jvm.stderr()).as(jvm.dump()).allMatch(line -> line.startsWith("[mcp-policy] "))
                    .anyMatch(line -> line.startsWith("[mcp-policy] mcp-policy-agent "))
                    .noneMatch(line -> line.startsWith("[mcp-policy] policy "))
                    .noneMatch(line -> line.contains("WARN") || line.contains("ERROR") || line.contains("instrumented"));
        }
    }
}
