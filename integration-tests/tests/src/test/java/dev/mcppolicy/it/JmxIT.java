package dev.mcppolicy.it;

import static dev.mcppolicy.it.StdioRpc.callText;
import static dev.mcppolicy.it.StdioRpc.initialize;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.tools.attach.VirtualMachine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.Test;

/**
 * {@code dev.mcppolicy:type=Decisions} read over a real JMX connection (the JDK's local management
 * agent, started in the server through the attach API, as {@code jconsole} does) from a real stdio
 * server under the agent: counts by outcome, tool and rule, reloads, the policy hash. The agent never
 * creates the platform MBean server while the app starts: it registers when a JMX client brings one, or
 * creates it itself a while later.
 */
class JmxIT {
    @Test
    void decisionsAreCountedByOutcomeToolAndRuleWithReloadsAndThePolicyHash() throws Exception {
        Path dir = Fixtures.workDir("JmxIT");
        Path policy = dir.resolve("mcp-policy.json");
        Files.writeString(policy, Policies.SERVER);
        Path classes = dir.resolve("classes.log");
        try (ForkedJvm server = StdioRpc.start("JmxIT", "2.1.0", dir, List.of("-Xlog:class+load=info:file=" + classes,
                // the agent's own deadline out of the way: on a slow box this test may take longer than 10 s
                "-Ddev.mcppolicy.test.jmx_latest_ms=600000"), "")) {
            initialize(server);
            assertThat(callText(server, "1", "echo", "{\"text\":\"a\"}")).isEqualTo("echo: a");
            assertThat(callText(server, "2", "echo", "{\"text\":\"b\"}")).isEqualTo("echo: b");
            assertThat(callText(server, "3", "delete_everything", "{}")).startsWith("Policy denied tool 'delete_everything'");
            assertThat(callText(server, "4", "audit_me", "{}")).isEqualTo("audit_me done");
            Files.writeString(policy, "{ \"version\": \"1\", \"defualt\": \"allow\" }");
            server.awaitStderr(line -> line.contains("policy reload rejected"));
            Files.writeString(policy, Policies.SERVER.replace("\"wire_money\": {},", ""));
            server.awaitStderr(line -> line.contains("policy reloaded"));
            String sha256 = server.awaitStderr(line -> line.contains("policy reloaded")).replaceAll(".* -> (\\w+) .*", "$1");

            assertThat(Files.readAllLines(classes)).as("no MBean server while nobody asked for one")
                    .anyMatch(l -> l.contains("dev.mcppolicy.agent.metrics.JmxRegistration"))
                    .noneMatch(l -> l.contains("com.sun.jmx.mbeanserver.JmxMBeanServer "))
                    // a JSON policy loads none of the YAML side, nor the agent's copy of Jackson (issue 16: load only
                    // what the policy uses; its own reader reads JSON)
                    .noneMatch(l -> l.contains(".dataformat.yaml.") || l.contains("snakeyaml"))
                    .noneMatch(l -> l.contains("dev.mcppolicy.agent.shaded.com.fasterxml.jackson."));

            try (JMXConnector connector = connect(server)) {
                MBeanServerConnection jmx = connector.getMBeanServerConnection();
                ObjectName name = new ObjectName("dev.mcppolicy:type=Decisions");
                awaitRegistered(jmx, name);
                assertThat(jmx.getAttribute(name, "Allowed")).isEqualTo(3L);
                assertThat(jmx.getAttribute(name, "Denied")).isEqualTo(1L);
                assertThat(jmx.getAttribute(name, "WouldDeny")).as("audit_me runs in monitor mode").isEqualTo(1L);
                assertThat(table(jmx.getAttribute(name, "ByTool"))).containsEntry("server echo", 2L)
                        .containsEntry("server delete_everything", 1L).containsEntry("server audit_me", 1L);
                assertThat(table(jmx.getAttribute(name, "ByRule"))).containsEntry("/tools/echo", 2L)
                        .containsEntry("/tools/delete_everything", 1L);
                assertThat(jmx.getAttribute(name, "ReloadsApplied")).isEqualTo(1L);
                assertThat(jmx.getAttribute(name, "ReloadsRejected")).isEqualTo(1L);
                assertThat(jmx.getAttribute(name, "AgentErrors")).isEqualTo(0L);
                assertThat(jmx.getAttribute(name, "PolicySha256")).isEqualTo(sha256);
                assertThat(jmx.getAttribute(name, "PolicyState")).isEqualTo("LOADED");
            }
            server.awaitStderrCount(line -> line.contains("decision="), 4, Duration.ofSeconds(1));
        }
    }

    @Test
    void withNoJmxClientTheAgentCreatesTheServerItselfOnceTheAppHasStarted() throws Exception {
        Path dir = Fixtures.workDir("JmxIT-latest");
        Files.writeString(dir.resolve("mcp-policy.json"), Policies.SERVER);
        try (ForkedJvm server = StdioRpc.start("JmxIT-latest", "2.1.0", dir, List.of("-Ddev.mcppolicy.test.jmx_latest_ms=300"), "debug=true")) {
            initialize(server);
            assertThat(callText(server, "1", "echo", "{\"text\":\"a\"}")).isEqualTo("echo: a");
            server.awaitStderr(line -> line.contains("[mcp-policy] DEBUG JMX: dev.mcppolicy:type=Decisions registered"));
            try (JMXConnector connector = connect(server)) {
                MBeanServerConnection jmx = connector.getMBeanServerConnection();
                ObjectName name = new ObjectName("dev.mcppolicy:type=Decisions");
                assertThat(jmx.isRegistered(name)).as("registered before any client came").isTrue();
                assertThat(jmx.getAttribute(name, "Allowed")).isEqualTo(1L);
            }
        }
    }

    /** A JMX connection to {@code server} through its local management agent, started over the attach API as {@code jconsole} does. */
    private static JMXConnector connect(ForkedJvm server) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(String.valueOf(server.pid()));
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        return JMXConnectorFactory.connect(new JMXServiceURL(address));
    }

    /** The agent registers within a poll (200 ms) of the server the attached management agent creates. */
    private static void awaitRegistered(MBeanServerConnection jmx, ObjectName name) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!jmx.isRegistered(name)) {
            assertThat(System.nanoTime()).as(name + " registered within 10 s of the JMX client's arrival").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    /** An MXBean {@code Map<String, Long>} as JMX carries it: rows of key and value. */
    private static Map<String, Long> table(Object attribute) {
        Map<String, Long> map = new HashMap<>();
        for (Object row : ((TabularData) attribute).values()) {
            CompositeData entry = (CompositeData) row;
            map.put((String) entry.get("key"), (Long) entry.get("value"));
        }
        return map;
    }
}
