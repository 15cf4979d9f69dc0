package dev.mcppolicy.agent.store;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.agent.status.StartupSummary;
import dev.mcppolicy.ratelimit.RateLimitStore;
import dev.mcppolicy.ratelimit.redis.RedisRateLimitStore;
import dev.mcppolicy.ratelimit.redis.RedisStoreSettings;
import dev.mcppolicy.ratelimit.redis.RedisUrl;

/** Opens the Redis store ({@code store=redis://...}): the one class that reaches the bundled Redis client. */
final class RedisStores {

    private RedisStores() {
    }

    static RateLimitStore open(RedisUrl url, AgentConfig config, StartupSummary summary) {
        String where = url.masked();
        String failing = config.storeFailOpen() ? "let through uncounted (store_fail=allow)" : "denied (store_fail=deny)";
        RedisStoreSettings settings = RedisStoreSettings.of(url)
                .withTimeout(config.storeTimeout())
                .withKeyPrefix(config.storeKeyPrefix())
                .withListener((available, detail) -> {
                    summary.status().storeChanged(available);
                    if (available) {
                        Diagnostics.info("rate-limit store " + where + " available: " + detail);
                    } else {
                        Diagnostics.warn("rate-limit store " + where + " unavailable: " + detail + "; calls with rate limits are "
                                + failing + " until it answers again");
                    }
                });
        Diagnostics.info("rate-limit store: " + where + " (store_timeout=" + config.storeTimeout().toMillis() + "ms, store_key_prefix="
                + config.storeKeyPrefix() + ", store_fail=" + (config.storeFailOpen() ? "allow" : "deny") + ")");
        return RedisRateLimitStore.open(settings);
    }
}
