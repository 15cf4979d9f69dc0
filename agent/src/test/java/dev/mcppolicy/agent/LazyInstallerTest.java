package dev.mcppolicy.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.bridge.PolicyBridge;
import dev.mcppolicy.agent.log.DecisionLog;
import dev.mcppolicy.agent.status.AgentStatus;
import dev.mcppolicy.agent.status.StartupSummary;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The hooks are installed once: a failed install is reported once, not again at every later MCP class. */
class LazyInstallerTest {
    @Test
    void aFailedInstallIsTriedOnceAndReportedOnce() {
        AtomicInteger starts = new AtomicInteger();
        Thread failingLoader = new Thread("test-policy-loader") {
            @Override
            public synchronized void start() {
                starts.incrementAndGet();
                throw new IllegalStateException("cannot start the policy loader");
            }
        };
        StartupSummary summary = new StartupSummary();
        LazyInstaller installer = new LazyInstaller(PolicyHolder.loading(false), () -> new DecisionLog(List.of(), false), failingLoader,
                true, summary, null, false, false);

        String err = stderrOf(() -> {
            for (String type : List.of("io/modelcontextprotocol/spec/McpSchema", "io/modelcontextprotocol/server/McpAsyncServer",
                    "io/modelcontextprotocol/client/McpAsyncClient")) {
                assertThat(installer.transform(null, null, type, null, null, new byte[0])).as(type).isNull();
            }
            assertThat(installer.activate()).isNull();
        });

        assertThat(starts).hasValue(1);
        assertThat(err.lines().filter(line -> line.startsWith("[mcp-policy] ERROR could not install the MCP hooks")))
                .containsExactly("[mcp-policy] ERROR could not install the MCP hooks; MCP tool calls are NOT policed:"
                        + " java.lang.IllegalStateException: cannot start the policy loader");
        assertThat(err.lines().filter(line -> line.startsWith("java.lang.IllegalStateException"))).as("one stack trace").hasSize(1);
        assertThat(summary.status().hooks())
                .isEqualTo(new AgentStatus.Hooks(AgentStatus.Hooks.State.FAILED,
                        "java.lang.IllegalStateException: cannot start the policy loader"));
    }

    @Test
    void classesOutsideTheSdkNeverWakeItUp() {
        AtomicInteger starts = new AtomicInteger();
        Thread loader = new Thread("test-policy-loader") {
            @Override
            public synchronized void start() {
                starts.incrementAndGet();
            }
        };
        LazyInstaller installer = new LazyInstaller(PolicyHolder.loading(false), () -> new DecisionLog(List.of(), false), loader, true,
                new StartupSummary(), null, false, false);
        assertThat(installer.transform(null, null, "com/example/App", null, null, new byte[0])).isNull();
        assertThat(installer.transform(null, null, null, null, null, new byte[0])).isNull();
        assertThat(starts).hasValue(0);
    }

    @Test
    void anMcpClassItDoesNotWeaveStartsTheInstallWithoutWaitingAndAWovenOneWaitsForIt() throws Exception {
        CountDownLatch installing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger starts = new AtomicInteger();
        AtomicReference<String> installThread = new AtomicReference<>();
        Thread loader = new Thread("test-policy-loader") {
            @Override
            public synchronized void start() {
                // the install's first step: held here until the test lets it go
                starts.incrementAndGet();
                installThread.set(Thread.currentThread().getName());
                installing.countDown();
                awaitQuietly(release);
                throw new IllegalStateException("the test's install stops here");
            }
        };
        LazyInstaller installer = new LazyInstaller(PolicyHolder.loading(false), () -> new DecisionLog(List.of(), false), loader, true,
                new StartupSummary(), null, false, false);

        Stderr.of(() -> {
            assertThat(installer.transform(null, null, "io/modelcontextprotocol/spec/McpSchema", null, null, new byte[0])).isNull();
            assertThat(installer.transform(null, null, "io/modelcontextprotocol/spec/McpSchema$Tool", null, null, new byte[0])).isNull();
            awaitQuietly(installing);
            assertThat(installThread).as("the install runs beside the app's thread").hasValue("mcp-policy-install");

            Thread woven = new Thread(() -> installer.transform(null, null, "io/modelcontextprotocol/server/McpAsyncServer", null, null,
                    new byte[0]), "loads-a-woven-class");
            woven.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (woven.getState() != Thread.State.BLOCKED && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(woven.getState()).as("a class the agent weaves waits for the install").isEqualTo(Thread.State.BLOCKED);
            release.countDown();
            try {
                woven.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertThat(woven.isAlive()).isFalse();
        });
        assertThat(starts).as("one install").hasValue(1);
    }

    @Test
    void atJavaagentTimeTheCanaryRunsOnceTheFirstWovenClassHasBeenThroughTheWeaving() throws Exception {
        Thread loader = new Thread("test-policy-loader") {
            @Override
            public synchronized void start() {
                // the policy is not read in this test
            }
        };
        StartupSummary summary = new StartupSummary();
        LazyInstaller installer = new LazyInstaller(PolicyHolder.loading(false), () -> new DecisionLog(List.of(), false), loader, true,
                summary, null, false, true);
        try {
            String err = Stderr.of(() -> {
                assertThat(installer.activate()).as("installed").isNotNull();
                // an install that started the canary at once would have an answer well within this
                long quiet = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
                while (System.nanoTime() < quiet) {
                    assertThat(summary.status().canary().outcome()).as("no canary before a woven class")
                            .isEqualTo(AgentStatus.CanaryResult.Outcome.NOT_RUN);
                    Thread.onSpinWait();
                }
                // not a class file: the weaving fails (and says so), and the canary runs all the same
                installer.transform(null, null, "io/modelcontextprotocol/server/McpAsyncServer", null, null, new byte[0]);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (summary.status().canary().outcome() == AgentStatus.CanaryResult.Outcome.NOT_RUN && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
            });
            // no transformer is registered in this JVM: the canary's target loads unwoven, and the canary says so
            assertThat(summary.status().canary().outcome()).isEqualTo(AgentStatus.CanaryResult.Outcome.HOOKS_DID_NOT_FIRE);
            assertThat(err).contains("WARN advice error in instrumenting (io.modelcontextprotocol.server.McpAsyncServer");
        } finally {
            PolicyBridge.install(null);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("not within 10 s");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static String stderrOf(Runnable action) {
        return Stderr.of(action);
    }
}
