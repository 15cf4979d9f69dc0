package dev.mcppolicy.ratelimit.redis;

import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.policy.Algorithm;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Scope;
import dev.mcppolicy.ratelimit.Admission;
import dev.mcppolicy.ratelimit.CounterView;
import dev.mcppolicy.ratelimit.RateLimitStore;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.SslVerifyMode;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
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
import java.util.concurrent.TimeUnit;
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
 * <p><b>Connections</b>: a small pool (Jedis) shared by every thread; a call borrows one, sends one
 * {@code EVALSHA} and reads the answer on its own thread, waiting at most
 * {@link RedisStoreSettings#timeout()} for a connection and as long again for the answer (the socket
 * timeout); no thread is made per call. After {@link RedisStoreSettings#failuresToOpen()} failures in a
 * row the store stops asking: it answers {@link Admission#unavailable} at once while one probe at a
 * time, with backoff, asks Redis on a daemon thread that exists only during an outage, and answers
 * normally again after the first probe that succeeds. Each change is reported once to the
 * {@link StoreStateListener}. Broken connections are dropped and new ones made as needed.
 *
 * <p>A call that timed out may still be counted by Redis when its command runs late.
 */
public final class RedisRateLimitStore implements RateLimitStore, AutoCloseable {
    static final String SCRIPT = script();
    static final String SCRIPT_SHA = sha1(SCRIPT);
    private static final long FIRST_PROBE_MILLIS = 50;
    private static final long LAST_PROBE_MILLIS = 2_000;
    private static final int MOST_RECENT_KEYS = 10_000;
    /** Connections at most: calls in flight beyond this wait (up to the timeout) for one to be free. */
    private static final int MOST_CONNECTIONS = 16;

    private final RedisStoreSettings settings;
    private final RedisClient client;
    private final String keyStart;
    private final AtomicInteger failures = new AtomicInteger();
    /** Keys this JVM counted under, by hashed Redis key: what {@link #counters} can name. */
    private final Map<String, String[]> recentKeys = new ConcurrentHashMap<>();
    /** Runs the probes; its one thread ends when no probe is due. */
    private final ScheduledThreadPoolExecutor prober;
    /** Why the store fails fast now, or {@code null} while it asks Redis. */
    private volatile String openReason;
    private volatile boolean closed;

    private RedisRateLimitStore(RedisStoreSettings settings) {
        this.settings = settings;
        this.keyStart = settings.keyPrefix() + "{rl}:";
        RedisUrl url = settings.url();
        int timeout = (int) Math.max(1, Math.min(Integer.MAX_VALUE, settings.timeout().toMillis()));
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(timeout)
                .socketTimeoutMillis(timeout)
                .database(url.database())
                .clientName("mcp-policy");
        if (url.tls()) {
            // rediss://: TLS with the JVM's trust store, the server's certificate and host name checked
            config.sslOptions(SslOptions.builder().sslVerifyMode(SslVerifyMode.FULL).build());
        }
        if (url.user() != null) {
            config.user(url.user());
        }
        if (url.password() != null) {
            config.password(url.password());
        }
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(MOST_CONNECTIONS);
        pool.setMaxIdle(MOST_CONNECTIONS);
        pool.setMinIdle(0);
        pool.setMaxWait(settings.timeout());
        pool.setBlockWhenExhausted(true);
        // no evictor thread, no MBean: the host app gets nothing from the pool but its connections
        pool.setTimeBetweenEvictionRuns(Duration.ofMillis(-1));
        pool.setJmxEnabled(false);
        this.client = RedisClient.builder().hostAndPort(url.host(), url.port()).clientConfig(config.build()).poolConfig(pool).build();
        this.prober = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "mcp-policy-redis-probe");
            thread.setDaemon(true);
            return thread;
        });
        prober.setKeepAliveTime(1, TimeUnit.SECONDS);
        prober.allowCoreThreadTimeOut(true);
        this.openReason = "connecting to " + url.masked();
    }

    /**
     * Connects to Redis and loads the script, on the calling thread (the agent's policy loader, off the
     * call path). When Redis does not answer, calls get {@link Admission#unavailable} until a probe in
     * the background reaches it.
     */
    public static RedisRateLimitStore open(RedisStoreSettings settings) {
        RedisRateLimitStore store = new RedisRateLimitStore(settings);
        store.probeNow(FIRST_PROBE_MILLIS);
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
    @SuppressWarnings("unchecked")
    private List<Object> run(String[] redisKeys, String[] arguments) throws StoreFailure {
        List<String> keyList = List.of(redisKeys);
        List<String> argumentList = List.of(arguments);
        try {
            Object answer;
            try {
                answer = client.evalsha(SCRIPT_SHA, keyList, argumentList);
            } catch (JedisNoScriptException e) {
                // Redis restarted or its script cache was flushed: EVAL sends the script and caches it again
                answer = client.eval(SCRIPT, keyList, argumentList);
            }
            failures.set(0);
            return (List<Object>) answer;
        } catch (RuntimeException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof SocketTimeoutException) {
                    throw new StoreFailure("redis did not answer within " + settings.timeout().toMillis() + "ms", e);
                }
            }
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

    /** One probe in {@code delayMillis}, on the prober's thread. */
    private void probe(long delayMillis) {
        if (!closed) {
            prober.schedule(() -> probeNow(delayMillis), delayMillis, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Asks Redis to load the script (which it must answer, and which a restarted Redis needs anyway).
     * Success closes the circuit; failure schedules the next probe, twice as late, up to
     * {@value #LAST_PROBE_MILLIS} ms.
     */
    private void probeNow(long delayMillis) {
        if (closed) {
            return;
        }
        try {
            client.scriptLoad(SCRIPT);
        } catch (RuntimeException | LinkageError e) {
            String reason = "cannot reach " + settings.url().masked() + ": " + describe(e);
            synchronized (this) {
                if (openReason != null && openReason.startsWith("connecting to ")) {
                    openReason = reason;
                    settings.listener().changed(false, reason);
                }
            }
            probe(Math.min(LAST_PROBE_MILLIS, delayMillis * 2));
            return;
        }
        boolean changed;
        synchronized (this) {
            changed = openReason != null && !closed;
            failures.set(0);
            if (!closed) {
                openReason = null;
            }
        }
        if (changed) {
            settings.listener().changed(true, "redis at " + settings.url().masked() + " answers");
        }
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

    /** Closes the connections and stops probing; calls answer unavailable afterwards. */
    @Override
    public void close() {
        closed = true;
        openReason = "the store is closed";
        prober.shutdownNow();
        client.close();
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
