package dev.mcppolicy.agent.attach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AttachReportTest {
    @Test
    void theReportPathRidesInFrontOfTheOptionsAndComesOffWhole() {
        String args = AttachReport.agentArgs(Path.of("/tmp/a b,c/report.properties"), "policy=/p/x.json,debug=true");
        assertThat(AttachReport.reportPath(args)).isEqualTo("/tmp/a b,c/report.properties");
        assertThat(AttachReport.options(args)).isEqualTo("policy=/p/x.json,debug=true");
        assertThat(AttachReport.options(AttachReport.agentArgs(Path.of("/r"), ""))).isEmpty();
    }

    @Test
    void argumentsOfAJavaagentStartCarryNoReport() {
        assertThat(AttachReport.reportPath("policy=mcp-policy.json")).isNull();
        assertThat(AttachReport.options("policy=mcp-policy.json")).isEqualTo("policy=mcp-policy.json");
        assertThat(AttachReport.reportPath(null)).isNull();
        assertThat(AttachReport.options(null)).isNull();
    }

    @Test
    void aPathWithALineBreakIsRefused() {
        assertThatThrownBy(() -> AttachReport.agentArgs(Path.of("/tmp/a\nb"), "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWrittenReportIsReadBackWithItsNumberedLists(@TempDir Path dir) throws Exception {
        Properties report = new Properties();
        report.setProperty(AttachReport.OUTCOME, AttachReport.STARTED);
        report.setProperty(AttachReport.INSTRUMENTED + 0, "a");
        report.setProperty(AttachReport.INSTRUMENTED + 1, "b");
        report.setProperty(AttachReport.INSTRUMENTED + 3, "not after a gap");
        Path file = dir.resolve("report.properties");
        AttachReport.write(report, file);
        assertThat(Files.list(dir)).containsExactly(file);
        Properties read = AttachReport.read(file);
        assertThat(read.getProperty(AttachReport.OUTCOME)).isEqualTo("started");
        assertThat(AttachReport.list(read, AttachReport.INSTRUMENTED)).containsExactly("a", "b");
    }
}
