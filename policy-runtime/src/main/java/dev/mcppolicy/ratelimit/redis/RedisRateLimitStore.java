package dev.mcppolicy.ratelimit.redis;

import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.policy.Algorithm;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Scope;
import dev.mcppolicy.ratelimit.Admission;
import dev.mcppolicy.ratelimit.CounterView;
import dev.mcppolicy.ratelimit.RateLimitStore;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.DefaultClientResources;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Rate-limit state in Redis (SPEC §10), so a fleet of JVMs shares one budget per counter and key. The
 * same three algorithms as the in-memory store, all-or-nothing across a call's limits, in one Lua
 * script ({@code limits.lua}, run by {@code EVALSHA}, sent again with {@code EVAL} when Redis answers
 * {@code NOSCRIPT}): one round trip per decision that has limits.
 *
 * <p><b>Time is Redis's</b>: the script reads {@code TIME}, so the JVMs of a fleet agree on windows
 * whatever their clocks say, and the {@code nowMillis} the engine passes is ignored (unless
 * {@link RedisStoreSettings#engineTime()}, for tests on a fake clock).
 *
 * <p><b>Keys</b>: {@code <prefix>{rl}:<algorithm>:<counter length>:<counter>:<key>}, where the key is
 * {@code global} or the first 128 bits of the SHA-256 of the engine's key (a session id or a client
 * id is never stored as it is). Every key of a prefix carries the hash tag {@code {rl}}, so any set of
 * them a decision touches lies in one Redis Cluster slot. Each key expires once it has been idle for
 * its window, when every algorithm has room for a full burst again, so expiry never changes a decision.
 *
 * <p><b>Connection</b>: one multiplexed connection (Lettuce) shared by every thread; the caller's
 * thread waits at most {@link RedisStoreSettings#timeout()} for the answer, and no thread is made per
 * call. After {@link RedisStoreSettings#failuresToOpen()} failures in a row the store stops waiting:
 * it answers {@link Admission#unavailable} at once while one probe at a time, with backoff, asks Redis
 * on the client's own event loop, and answers normally again after the first probe that succeeds.
 * Each change is reported once to the {@link StoreStateListener}. Lettuce reconnects by itself.
 *
 * <p>A call that timed out may still be counted by Redis when its command runs late.
 */
public final class RedisRateLimitStore implements RateLimitStore, AutoCloseable {
    static final String SCRIPT = script();
    static final String SCRIPT_SHA = sha1(SCRIPT);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    private static final long FIRST_PROBE_MILLIS = 50;
    private static final long LAST_PROBE_MILLIS = 2_000;
    private static final int MOST_RECENT_KEYS = 10_000;

    private final RedisStoreSettings settings;
    private final ClientResources resources;
    private final RedisClient client;
    private final RedisURI uri;
    private final long timeoutNanos;
    private final String keyStart;
    private final CountDownLatch firstAnswer = new CountDownLatch(1);
    private final AtomicInteger failures = new AtomicInteger();
    /** Keys this JVM counted under, by hashed Redis key: what {@link #counters} can name. */
    private final Map<String, String[]> recentKeys = new ConcurrentHashMap<>();
    private volatile StatefulRedisConnection<String, String> connection;
    /** Why the store fails fast now, or {@code null} while it asks Redis. */
    private volatile String openReason;
    private volatile boolean closed;

    private RedisRateLimitStore(RedisStoreSettings settings) {
        this.settings = settings;
        this.timeoutNanos = settings.timeout().toNanos();
        this.keyStart = settings.keyPrefix() + "{rl}:";
        this.resources = DefaultClientResources.builder()
                .ioThreadPoolSize(1)
                .computationThreadPoolSize(1)
                .reconnectDelay(Delay.exponential(Duration.ofMillis(FIRST_PROBE_MILLIS), Duration.ofMillis(LAST_PROBE_MILLIS), 2,
                        TimeUnit.MILLISECONDS))
                .build();
        RedisUrl url = settings.url();
        RedisURI.Builder builder = RedisURI.builder().withHost(url.host()).withPort(url.port()).withDatabase(url.database())
                .withSsl(url.tls()).withTimeout(settings.timeout());
        if (url.password() != null) {
            if (url.user() != null) {
                builder.withAuthentication(url.user(), url.password().toCharArray());
            } else {
                builder.withPassword(url.password().toCharArray());
            }
        }
        this.uri = builder.build();
        this.client = RedisClient.create(resources);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(settings.timeout()))
                .socketOptions(SocketOptions.builder().connectTimeout(CONNECT_TIMEOUT).build())
                .build());
        this.openReason = "connecting to " + url.masked();
    }

    /**
     * Starts connecting to Redis and waits up to {@code startupWait} for its first answer (off the call
     * path: the agent's policy loader thread). Until Redis answers, calls get {@link Admission#unavailable}.
     */
    public static RedisRateLimitStore open(RedisStoreSettings settings, Duration startupWait) {
        RedisRateLimitStore store = new RedisRateLimitStore(settings);
        store.probe(FIRST_PROBE_MILLIS);
        try {
            store.firstAnswer.await(startupWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return store;
    }

    /** Whether calls are sent to Redis now (not failing fast). */
    public boolean available() {
        return openReason == null;
    }

    /** Why calls fail fast now, or {@code null} while they are sent to Redis. */
    public String unavailableReason() {
        return openReason;
    }

    public RedisStoreSettings settings() {
        return settings;
    }

    @Override
    public Admission tryAcquire(Limit[] limits, String[] keys, long nowMillis) {
        String open = openReason;
        if (open != null) {
            return Admission.unavailable(open);
        }
        String[] redisKeys = new String[limits.length];
        for (int i = 0; i < limits.length; i++) {
            redisKeys[i] = redisKey(limits[i], keys[i]);
            if (!GLOBAL_KEY.equals(keys[i]) && recentKeys.size() < MOST_RECENT_KEYS) {
                recentKeys.putIfAbsent(redisKeys[i], new String[] {limits[i].counter(), keys[i]});
            }
        }
        List<Object> answer;
        try {
            answer = run(redisKeys, arguments("a", limits, nowMillis));
        } catch (StoreFailure e) {
            return failed(e.getMessage());
        }
        long refused = (Long) answer.get(0);
        return refused < 0 ? Admission.ADMITTED : Admission.refusedBy((int) refused, (Long) answer.get(1));
    }

    @Override
    public List<CounterView> counters(Collection<Limit> limits, int maxKeysPerCounter, long nowMillis) {
        List<Limit> peeked = new ArrayList<>();
        List<String> peekedKeys = new ArrayList<>();
        List<String> redisKeys = new ArrayList<>();
        for (Limit limit : limits) {
            if (limit.scope() == Scope.GLOBAL) {
                peeked.add(limit);
                peekedKeys.add(GLOBAL_KEY);
                redisKeys.add(redisKey(limit, GLOBAL_KEY));
                continue;
            }
            for (Map.Entry<String, String[]> recent : recentKeys.entrySet()) {
                if (recent.getValue()[0].equals(limit.counter()) && recent.getKey().equals(redisKey(limit, recent.getValue()[1]))) {
                    peeked.add(limit);
                    peekedKeys.add(recent.getValue()[1]);
                    redisKeys.add(recent.getKey());
                }
            }
        }
        if (peeked.isEmpty() || openReason != null) {
            return List.of();
        }
        List<Object> answer;
        try {
            answer = run(redisKeys.toArray(new String[0]), arguments("p", peeked.toArray(new Limit[0]), nowMillis));
        } catch (StoreFailure e) {
            failed(e.getMessage());
            return List.of();
        }
        List<CounterView> views = new ArrayList<>();
        for (Limit limit : limits) {
            List<CounterView> ofLimit = new ArrayList<>();
            for (int i = 0; i < peeked.size(); i++) {
                if (peeked.get(i) == limit) {
                    ofLimit.add(new CounterView(limit.counter(), limit.scope(), peekedKeys.get(i), (Long) answer.get(2 * i), limit.max(),
                            limit.window(), limit.algorithm(), (Long) answer.get(2 * i + 1)));
                }
            }
            ofLimit.removeIf(view -> limit.scope() != Scope.GLOBAL && view.used() == 0);
            if (ofLimit.isEmpty()) {
                ofLimit.add(new CounterView(limit.counter(), limit.scope(), limit.scope() == Scope.GLOBAL ? GLOBAL_KEY : null, 0,
                        limit.max(), limit.window(), limit.algorithm(), 0));
            }
            ofLimit.sort(Comparator.comparingLong(CounterView::used).reversed().thenComparing(CounterView::key,
                    Comparator.nullsFirst(Comparator.naturalOrder())));
            views.addAll(ofLimit.subList(0, Math.min(maxKeysPerCounter, ofLimit.size())));
        }
        return views;
    }

    /** The script's answer, or a {@link StoreFailure} saying why there is none. */
    private List<Object> run(String[] redisKeys, String[] arguments) throws StoreFailure {
        StatefulRedisConnection<String, String> current = connection;
        if (current == null) {
            throw new StoreFailure("not connected to " + settings.url().masked());
        }
        long deadline = System.nanoTime() + timeoutNanos;
        try {
            return await(current.async().evalsha(SCRIPT_SHA, ScriptOutputType.MULTI, redisKeys, arguments), deadline);
        } catch (StoreFailure e) {
            if (!(e.getCause() instanceof RedisNoScriptException)) {
                throw e;
            }
            // Redis restarted or its script cache was flushed: EVAL sends the script and caches it again
            return await(current.async().eval(SCRIPT, ScriptOutputType.MULTI, redisKeys, arguments), deadline);
        }
    }

    private List<Object> await(RedisFuture<List<Object>> future, long deadline) throws StoreFailure {
        try {
            List<Object> answer = future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            failures.set(0);
            return answer;
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new StoreFailure("redis did not answer within " + settings.timeout().toMillis() + "ms", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new StoreFailure("redis: " + describe(cause), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreFailure("interrupted while waiting for redis", e);
        } catch (RuntimeException e) {
            throw new StoreFailure("redis: " + describe(e), e);
        }
    }

    /** Counts a failure; the one that makes {@code failuresToOpen} in a row opens the circuit. */
    private Admission failed(String reason) {
        if (failures.incrementAndGet() >= settings.failuresToOpen() && openReason == null) {
            synchronized (this) {
                if (openReason == null && !closed) {
                    openReason = reason + " (" + settings.failuresToOpen() + " failures in a row; failing fast until redis answers)";
                    settings.listener().changed(false, reason);
                    probe(FIRST_PROBE_MILLIS);
                }
            }
        }
        return Admission.unavailable(reason);
    }

    /**
     * One probe in {@code delayMillis}: connects if there is no connection yet, else loads the script
     * (which Redis must answer, and which a restarted Redis needs anyway). Success closes the circuit;
     * failure schedules the next probe, twice as late, up to {@value #LAST_PROBE_MILLIS} ms.
     */
    private void probe(long delayMillis) {
        if (closed) {
            return;
        }
        resources.eventExecutorGroup().schedule(() -> {
            try {
                StatefulRedisConnection<String, String> current = connection;
                if (current == null) {
                    client.connectAsync(StringCodec.UTF8, uri).whenComplete((made, failure) -> {
                        if (failure != null) {
                            probeFailed(delayMillis, failure);
                        } else {
                            connection = made;
                            loadScript(made, delayMillis);
                        }
                    });
                } else {
                    loadScript(current, delayMillis);
                }
            } catch (RuntimeException | LinkageError e) {
                probeFailed(delayMillis, e);
            }
        }, delayMillis, TimeUnit.MILLISECONDS);
    }

    private void loadScript(StatefulRedisConnection<String, String> current, long delayMillis) {
        current.async().scriptLoad(SCRIPT).whenComplete((sha, failure) -> {
            if (failure != null) {
                probeFailed(delayMillis, failure);
                return;
            }
            String was;
            synchronized (this) {
                was = openReason;
                failures.set(0);
                openReason = null;
            }
            if (was != null && !closed) {
                settings.listener().changed(true, "redis at " + settings.url().masked() + " answers");
            }
            firstAnswer.countDown();
        });
    }

    private void probeFailed(long delayMillis, Throwable failure) {
        if (firstAnswer.getCount() > 0) {
            String reason = "cannot reach " + settings.url().masked() + ": " + describe(failure);
            synchronized (this) {
                boolean first = openReason != null && openReason.startsWith("connecting to ");
                openReason = reason;
                if (first) {
                    settings.listener().changed(false, reason);
                    firstAnswer.countDown();
                }
            }
        }
        probe(Math.min(LAST_PROBE_MILLIS, delayMillis * 2));
    }

    private String[] arguments(String mode, Limit[] limits, long nowMillis) {
        String[] arguments = new String[2 + 3 * limits.length];
        arguments[0] = settings.engineTime() ? Long.toString(nowMillis) : "";
        arguments[1] = mode;
        for (int i = 0; i < limits.length; i++) {
            arguments[2 + 3 * i] = code(limits[i].algorithm());
            arguments[3 + 3 * i] = Long.toString(limits[i].window().toMillis());
            arguments[4 + 3 * i] = Long.toString(limits[i].max());
        }
        return arguments;
    }

    /** The Redis key of one limit's state for one engine key. */
    String redisKey(Limit limit, String key) {
        String counter = limit.counter();
        StringBuilder out = new StringBuilder(keyStart.length() + counter.length() + 48).append(keyStart)
                .append(code(limit.algorithm())).append(':').append(counter.length()).append(':').append(counter).append(':');
        if (GLOBAL_KEY.equals(key)) {
            return out.append(GLOBAL_KEY).toString();
        }
        return out.append('k').append(CanonicalJson.sha256Hex(key.getBytes(StandardCharsets.UTF_8)), 0, 32).toString();
    }

    private static String code(Algorithm algorithm) {
        return algorithm == Algorithm.SLIDING ? "s" : algorithm == Algorithm.FIXED ? "f" : "t";
    }

    private static String describe(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isEmpty() ? failure.getClass().getSimpleName() : message;
    }

    /** Closes the connection and the client's threads; calls answer unavailable afterwards. */
    @Override
    public void close() {
        closed = true;
        openReason = "the store is closed";
        client.shutdownAsync(0, 2, TimeUnit.SECONDS);
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }

    private static String script() {
        try (InputStream in = RedisRateLimitStore.class.getResourceAsStream("limits.lua")) {
            if (in == null) {
                throw new IllegalStateException("limits.lua is missing beside " + RedisRateLimitStore.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read limits.lua", e);
        }
    }

    private static String sha1(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder(40);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Why Redis gave no answer. */
    private static final class StoreFailure extends Exception {
        private static final long serialVersionUID = 1L;

        StoreFailure(String message) {
            super(message, null, false, false);
        }

        StoreFailure(String message, Throwable cause) {
            super(message, cause, false, false);
        }
    }
}
