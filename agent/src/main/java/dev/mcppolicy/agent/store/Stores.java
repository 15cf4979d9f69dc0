package dev.mcppolicy.agent.store;

import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.agent.status.StartupSummary;
import dev.mcppolicy.engine.EngineOptions;
import dev.mcppolicy.ratelimit.Admission;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.ratelimit.RateLimitStore;
import dev.mcppolicy.ratelimit.redis.RedisUrl;

/**
 * Makes the rate-limit store the configuration names (SPEC §10): in this JVM's memory (the default), or
 * in Redis through {@link RedisStores}, the only class that reaches the Redis client, so a JVM with
 * {@code store=memory} loads none of it.
 */
public final class Stores {
    private Stores() {
    }

    /** The engine options for {@code config}: its store and {@code store_fail}. Called on the policy loader's thread. */
    public static EngineOptions configured(AgentConfig config, StartupSummary summary) {
        EngineOptions.StoreFail fail = config.storeFailOpen() ? EngineOptions.StoreFail.ALLOW : EngineOptions.StoreFail.DENY;
        RedisUrl url;
        try {
            url = config.redisStore();
        } catch (IllegalStateException e) {
            // fail closed whatever store_fail says: a typo must not turn a fleet's limits off
            return EngineOptions.withStore(new Unusable(e.getMessage()));
        }
        if (url == null) {
            return EngineOptions.withStore(RateLimitStore.inMemory()).withStoreFail(fail);
        }
        return EngineOptions.withStore(RedisStores.open(url, config, summary)).withStoreFail(fail);
    }

    /** The store of a {@code store} value that is not valid: it never answers, so every call with limits is denied. */
    private static final class Unusable implements RateLimitStore {
        private final String reason;

        Unusable(String reason) {
            this.reason = reason;
        }

        @Override
        public Admission tryAcquire(Limit[] limits, String[] keys, long nowMillis) {
            return Admission.unavailable(reason);
        }
    }
}
