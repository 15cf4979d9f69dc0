package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.ratelimit.redis.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code store=redis://} (issue 14): three server JVMs with the real agent jar and one policy share one
 * budget per counter and key through a real {@code redis-server}; a JVM restarted mid-window keeps the
 * budget used; Redis stopped, restarted and frozen under running JVMs; and a JVM with the default
 * in-memory store loads none of the Redis client.
 */
class RedisFleetIT {
    private static final String SDK = "2.1.0";
    private static final String POLICY = """
            {
              "version": "1",
              "default": "deny",
              "tools": {
                "echo": {},
                "limited": { "limits": [ { "counter": "fleet", "window": "hour", "max": 20 } ] },
                "audit_me": { "limits": [ { "counter": "per-caller", "window": "hour", "max": 20, "scope": "client" } ] }
              }
            }
            """;
    private static final String CREDENTIAL = "Bearer fleet-user";

    private static ForkedJvm server(List<ForkedJvm> jvms, Path root, String name, String options) throws Exception {
        Path dir = Files.createDirectories(root.resolve(name));
        Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
        ForkedJvm server = ForkedJvm.start(name, dir, List.of(Fixtures.javaagent(options)), Fixtures.classPath(SDK), "fixture.FixtureServer",
                List.of("streamable"));
        jvms.add(server);
        return server;
    }

    private static String url(ForkedJvm server) {
        return "http://localhost:" + server.awaitStderr(l -> l.startsWith("FIXTURE LISTENING ")).substring(18).trim();
    }

    private static List<String> burst(ForkedJvm client, String spec) throws Exception {
        int from = client.stdout().size();
        client.send("burst " + spec);
        String line = client.awaitStdout(from, l -> l.startsWith(">> BURST ") || l.startsWith(">> ERROR"));
        assertThat(line).startsWith(">> BURST ");
        return Arrays.asList(line.substring(9).split("\t"));
    }

    /** Waits until {@code server} has printed {@code count} lines matching {@code match}. */
    private static void awaitLines(ForkedJvm server, java.util.function.Predicate<String> match, int count) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (server.stderr().stream().filter(match).count() < count) {
            assertThat(System.nanoTime()).as(server.dump()).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static long admitted(List<String> answers, String tool) {
        return answers.stream().filter(a -> a.equals("RESULT isError=false text=" + tool + " done")).count();
    }

    @Test
    void aFleetOfThreeJvmsSharesOneBudgetPerCounterAndKeyAndSurvivesRedisFaults() throws Exception {
        Path root = Fixtures.workDir("redis-fleet");
        List<ForkedJvm> jvms = new ArrayList<>();
        try (RedisServer redis = RedisServer.start()) {
            String store = "store=" + redis.store();
            // the burst proves one shared budget, so it must not race the 50 ms default: on a loaded 2-core box the
            // burst's first calls open up to 16 connections per JVM and can exceed it (then they are denied, as specified)
            String patient = store + ",store_timeout=10s";
            ForkedJvm[] servers = {
                server(jvms, root, "fleet-1", patient),
                server(jvms, root, "fleet-2", patient),
                server(jvms, root, "fleet-3", patient + ",store_fail=allow"),
            };
            ForkedJvm[] clients = new ForkedJvm[3];
            for (int i = 0; i < 3; i++) {
                clients[i] = Callers.start(jvms, root.resolve("client-" + i), "fleet-client-" + i, CREDENTIAL, Fixtures.classPath(SDK),
                        "streamable", url(servers[i]));
            }
            for (ForkedJvm server : servers) {
                assertThat(server.awaitStderr(l -> l.contains("rate-limit store redis://127.0.0.1:" + redis.port() + " available")))
                        .as(server.dump()).isNotNull();
            }

            // 3 x 30 calls at once, each client on its own server: 15 global, 15 client-scoped (one credential)
            List<List<String>> answers = new ArrayList<>();
            Thread[] senders = new Thread[3];
            for (int i = 0; i < 3; i++) {
                answers.add(null);
            }
            Exception[] failed = new Exception[1];
            for (int i = 0; i < 3; i++) {
                int n = i;
                senders[i] = new Thread(() -> {
                    try {
                        answers.set(n, burst(clients[n], "30 15 limited {};15 audit_me {}"));
                    } catch (Exception e) {
                        failed[0] = e;
                    }
                });
                senders[i].start();
            }
            for (Thread sender : senders) {
                sender.join();
            }
            assertThat(failed[0]).isNull();
            List<String> all = new ArrayList<>();
            answers.forEach(all::addAll);
            assertThat(all).as("every call answered").hasSize(90)
                    .allMatch(a -> a.startsWith("RESULT isError=false") || a.startsWith("RESULT isError=true text=Policy denied tool"));
            assertThat(all).as("no burst call timed out on the store").noneMatch(a -> a.contains("rate limit store unavailable"));
            assertThat(admitted(all, "limited")).as("one global budget across the fleet: %s", all).isEqualTo(20);
            assertThat(admitted(all, "audit_me")).as("one budget for the credential across the fleet: %s", all).isEqualTo(20);
            int lines = 0;
            for (ForkedJvm server : servers) {
                lines += server.awaitStderrCount(l -> l.contains("decision=") && (l.contains("tool=limited") || l.contains("tool=audit_me")),
                        30, java.time.Duration.ofSeconds(5)).size();
            }
            assertThat(lines).as("one decision line per call").isEqualTo(90);

            // a JVM restarted mid-window finds the budget used: the counts are in Redis
            servers[0].close();
            // 250 ms, not the 50 ms default: single calls on a loaded box; the freeze below still proves the timeout
            servers[0] = server(jvms, root, "fleet-1-again", store + ",store_timeout=250ms");
            ForkedJvm again = Callers.start(jvms, root.resolve("client-again"), "fleet-client-again", CREDENTIAL, Fixtures.classPath(SDK),
                    "streamable", url(servers[0]));
            assertThat(Callers.call(again, "limited")).startsWith("RESULT isError=true text=Policy denied tool 'limited': ")
                    .contains("retry after");
            assertThat(Callers.call(again, "echo")).as("a call without limits never asks the store").startsWith("RESULT isError=false");

            // Redis gone: store_fail=deny denies with the store's reason, store_fail=allow lets through and says so
            redis.stop();
            for (int i = 0; i < 4; i++) {
                assertThat(Callers.call(again, "audit_me")).startsWith("RESULT isError=true text=Policy denied tool 'audit_me': ")
                        .contains("rate limit store unavailable");
                assertThat(Callers.call(clients[2], "audit_me")).isEqualTo("RESULT isError=false text=audit_me done");
            }
            assertThat(Callers.call(again, "echo")).startsWith("RESULT isError=false");
            servers[2].awaitStderr(l -> l.contains("would=DENY") && l.contains("tool=audit_me") && l.contains("store_fail=allow"));
            servers[0].awaitStderr(l -> l.contains("[mcp-policy] WARN rate-limit store redis://127.0.0.1:" + redis.port() + " unavailable"));

            // Redis back (empty: it keeps nothing on disk): the JVMs use it again by themselves
            redis.startAgain();
            java.util.function.Predicate<String> availableLine = l -> l.contains("rate-limit store redis://") && l.contains(" available: redis at");
            awaitLines(servers[0], availableLine, 2);
            assertThat(Callers.call(again, "limited")).isEqualTo("RESULT isError=false text=limited done");

            // Redis frozen: the call is answered (denied) once store_timeout passes, then the store fails fast
            redis.pause();
            try {
                assertThat(Callers.call(again, "limited")).contains("rate limit store unavailable").contains("did not answer within 250ms");
                for (int i = 0; i < 3; i++) {
                    assertThat(Callers.call(again, "limited")).contains("rate limit store unavailable");
                }
            } finally {
                redis.resume();
            }
            awaitLines(servers[0], availableLine, 3);
            assertThat(servers[0].stderr().stream().filter(availableLine).count())
                    .as("available at start, after the restart, after the freeze: one line each").isEqualTo(3);
            assertThat(Callers.call(again, "limited")).isEqualTo("RESULT isError=false text=limited done");
            for (ForkedJvm server : servers) {
                assertThat(server.stderr()).as(server.dump()).noneMatch(l -> l.contains("advice error")).noneMatch(l -> l.startsWith("SLF4J:"))
                        .anyMatch(l -> l.contains("decision log: SLF4J logger") && l.contains("logback"));
                long unavailable = server.stderr().stream().filter(l -> l.contains(" unavailable: ") && l.contains("[mcp-policy] WARN")).count();
                assertThat(unavailable).as("one line per outage, not one per call").isLessThanOrEqualTo(2);
            }
        } finally {
            for (ForkedJvm jvm : jvms) {
                jvm.close();
            }
        }
    }

    @Test
    void aJvmWithTheInMemoryStoreLoadsNoneOfTheRedisClient() throws Exception {
        Path root = Fixtures.workDir("redis-not-loaded");
        Path classes = root.resolve("classes.log");
        List<ForkedJvm> jvms = new ArrayList<>();
        try {
            Path dir = Files.createDirectories(root.resolve("server"));
            Files.writeString(dir.resolve("mcp-policy.json"), POLICY);
            ForkedJvm server = ForkedJvm.start("memory-store", dir, List.of("-Xlog:class+load=info:file=" + classes, Fixtures.javaagent("")),
                    Fixtures.classPath(SDK), "fixture.FixtureServer", List.of("streamable"));
            jvms.add(server);
            ForkedJvm client = Callers.start(jvms, root.resolve("client"), "memory-client", CREDENTIAL, Fixtures.classPath(SDK), "streamable",
                    url(server));
            assertThat(Callers.call(client, "limited")).isEqualTo("RESULT isError=false text=limited done");
            List<String> loaded = Files.readAllLines(classes);
            assertThat(loaded).as("the engine and its in-memory store did load").anyMatch(l -> l.contains("dev.mcppolicy.ratelimit.InMemoryRateLimitStore"));
            assertThat(loaded).noneMatch(l -> l.contains("shaded.redis.") || l.contains("ratelimit.redis.") || l.contains("agent.store.RedisStores")
                    || l.contains("shaded.org.apache.commons.pool2") || l.contains("shaded.org.slf4j"));
        } finally {
            for (ForkedJvm jvm : jvms) {
                jvm.close();
            }
        }
    }
}
