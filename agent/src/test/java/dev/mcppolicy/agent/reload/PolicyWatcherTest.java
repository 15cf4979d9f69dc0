package dev.mcppolicy.agent.reload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.PolicyHolder;
import dev.mcppolicy.agent.PolicyReader;
import dev.mcppolicy.agent.Stderr;
import dev.mcppolicy.agent.status.AgentStatus;
import dev.mcppolicy.agent.status.StartupSummary;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.WatchService;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watcher driven step by step on a real directory: what counts as a change, the debounce, and what each change does. */
class PolicyWatcherTest {
    private static final String ALLOWS = "{\"version\": \"1\", \"default\": \"allow\"}";
    private static final String DENIES = "{\"version\": \"1\", \"default\": \"deny\"}";
    private static final String LIMITED = "{\"version\": \"1\", \"default\": \"deny\", \"tools\": {\"t\": {\"limits\": "
            + "[{\"counter\": \"c\", \"window\": \"hour\", \"max\": %d}]}}}";

    @TempDir
    Path dir;

    private PolicyHolder holder;
    private StartupSummary summary;
    private PolicyWatcher watcher;

    private void start(Path file) {
        holder = PolicyHolder.of(PolicyReader.read(file, file.toString(), false, Clock.systemUTC()));
        summary = new StartupSummary();
        watcher = new PolicyWatcher(holder, file, Duration.ofMillis(200), summary, Clock.systemUTC());
        watcher.prime();
    }

    private Effect decide(String tool) {
        Decision decision = holder.current().decide(new ToolCall(Side.SERVER, null, tool, Map.of(), "s", "c", null));
        return decision.effect();
    }

    /** One turn of the watcher's loop (no events: it waits one interval), then a check; its stderr. */
    private String look(WatchService events, boolean expectChange) {
        return Stderr.of(() -> {
            try {
                boolean changed = watcher.awaitChange(events);
                if (expectChange) {
                    assertThat(changed).as("the file looks changed").isTrue();
                }
                watcher.check();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void aBurstOfWritesIsOneChangeTakenOnceTheDirectoryIsQuiet() throws Exception {
        Path file = Files.writeString(dir.resolve("mcp-policy.json"), ALLOWS);
        start(file);
        try (WatchService events = watcher.watch()) {
            Files.writeString(file, "{\"version\": ");
            Files.writeString(file, DENIES.substring(0, 20));
            Files.writeString(file, DENIES);
            String err = look(events, true);
            assertThat(decide("t")).isEqualTo(Effect.DENY);
            assertThat(err).as("the half-written versions were never judged").doesNotContain("rejected").contains("policy reloaded");
            assertThat(watcher.awaitChange(events)).as("nothing more to take").isFalse();
        }
    }

    @Test
    void aRenameOverAndASymlinkSwapAreChangesTooAndTheSameBytesAreNoReload() throws Exception {
        Path data1 = Files.createDirectory(dir.resolve("..2026_01"));
        Path data2 = Files.createDirectory(dir.resolve("..2026_02"));
        Files.writeString(data1.resolve("mcp-policy.json"), ALLOWS);
        Files.writeString(data2.resolve("mcp-policy.json"), DENIES);
        Files.createSymbolicLink(dir.resolve("..data"), data1.getFileName());
        Path file = Files.createSymbolicLink(dir.resolve("mcp-policy.json"), Path.of("..data/mcp-policy.json"));
        start(file);
        try (WatchService events = watcher.watch()) {
            // Kubernetes' ConfigMap update: a new ..data link renamed over the old one
            Files.createSymbolicLink(dir.resolve("..data_tmp"), data2.getFileName());
            Files.move(dir.resolve("..data_tmp"), dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            String swapped = look(events, true);
            assertThat(swapped).contains("policy reloaded");
            assertThat(decide("t")).isEqualTo(Effect.DENY);

            Path plain = dir.resolve("plain.json");
            Files.writeString(plain, DENIES);
            Files.move(plain, data2.resolve("mcp-policy.json"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            String same = look(events, false);
            assertThat(same).as("renamed over with the same bytes: no reload").doesNotContain("policy reloaded");
            assertThat(summary.status().reloadsApplied()).isEqualTo(1);
        }
    }

    @Test
    void anInvalidVersionIsRejectedOnceAndTheNextValidOneIsTaken() throws Exception {
        Path file = Files.writeString(dir.resolve("mcp-policy.json"), ALLOWS);
        start(file);
        Files.writeString(file, "{\"version\": \"1\", \"defualt\": \"deny\"}");
        String rejected = look(null, true) + Stderr.of(watcher::check);
        assertThat(rejected.lines().filter(l -> l.contains("policy reload rejected")).count()).as("once per version").isEqualTo(1);
        assertThat(rejected).contains("(1 error); the policy in force stays").contains("/defualt").contains("unknown key 'defualt'");
        assertThat(decide("t")).as("the old policy decides").isEqualTo(Effect.ALLOW);
        assertThat(summary.status().lastReload().outcome()).isEqualTo(AgentStatus.ReloadResult.Outcome.REJECTED);

        Files.writeString(file, DENIES);
        look(null, true);
        assertThat(decide("t")).isEqualTo(Effect.DENY);
    }

    @Test
    void aRemovedFileKeepsThePolicyWithOneWarning() throws Exception {
        Path file = Files.writeString(dir.resolve("mcp-policy.json"), DENIES);
        start(file);
        Files.delete(file);
        String removed = look(null, true) + Stderr.of(watcher::check);
        assertThat(removed.lines().filter(l -> l.contains("WARN policy file removed")).count()).isEqualTo(1);
        assertThat(decide("t")).isEqualTo(Effect.DENY);
    }

    @Test
    void countersKeepTheirStateAndANewMaxAppliesToTheCountsMade() throws Exception {
        Path file = Files.writeString(dir.resolve("mcp-policy.json"), LIMITED.formatted(2));
        start(file);
        assertThat(decide("t")).isEqualTo(Effect.ALLOW);
        assertThat(decide("t")).isEqualTo(Effect.ALLOW);
        assertThat(decide("t")).isEqualTo(Effect.DENY);

        Files.writeString(file, LIMITED.formatted(3));
        look(null, true);
        assertThat(decide("t")).as("2 of 3 used before the reload").isEqualTo(Effect.ALLOW);
        assertThat(decide("t")).isEqualTo(Effect.DENY);
    }
}
