package dev.mcppolicy.agent.config;

import java.util.List;

/**
 * Every configuration key, declared once (SPEC §2): its name, type, default, allowed values and
 * meaning. {@link AgentConfig} validates against this list, the startup summary and the "unknown key"
 * message are built from it, and {@code ConfigTableTest} holds docs/configuration.md's table to it.
 *
 * <p>Each default is the safe choice, so a value that is not allowed falls back to it (an invalid
 * {@code policy} path is the exception: it reads no policy, and {@code on_error} answers every call).
 * The order is docs/configuration.md's.
 */
public enum ConfigKey {
    POLICY("policy", Type.PATH, null, "mcp-policy.json (then .yaml, .yml) in the working directory, then beside the app's main jar",
            "the policy file"),
    ON_ERROR("on_error", Type.CHOICE, "deny", List.of("deny", "allow"),
            "what a missing or invalid policy, or an internal error, does: deny (fail closed) or allow (fail open)"),
    LOG("log", Type.CHOICE, "app", List.of("app", "stderr", "off"), "where decision lines go"),
    AUDIT("audit", Type.PATH, null, "unset", "path of a JSON-lines audit file, one object per decision"),
    LOG_ARGUMENTS("log_arguments", Type.BOOLEAN, "false", "also log argument values (off: only keys and a hash)"),
    LOG_USER("log_user", Type.CHOICE, "plain", List.of("plain", "hash"),
            "how the decision line and the audit show a verified caller's subject (user=): as it is, or its SHA-256"),
    OTEL("otel", Type.BOOLEAN, "true",
            "put each decision on the app's OpenTelemetry trace (when the app or the OTel Java agent has one): off leaves traces alone"),
    DEBUG("debug", Type.BOOLEAN, "false", "the agent's own diagnostics on stderr"),
    RELOAD("reload", Type.BOOLEAN, "true", "watch the policy file and apply valid changes without a restart"),
    RELOAD_INTERVAL("reload_interval", Type.DURATION, "2s", "2s",
            "how often the policy file is also checked when the file system sends no change events"),
    SERIALIZE_STDIO("serialize_stdio", Type.BOOLEAN, "true",
            "carry the MCP SDK 2.1.0 fix for lost stdio messages into older SDKs"),
    ADMIN("admin", Type.ADDRESS, null, "unset (off)",
            "the local admin endpoint and page: a loopback host:port (port 0 picks a free one)"),
    ADMIN_TOKEN("admin_token", Type.SECRET, null, "unset: a random token, in a file only the user can read",
            "the admin endpoint's bearer token"),
    APPROVAL_MAX_PENDING("approval.max_pending", Type.COUNT, "100", "100",
            "how many calls may wait for approval at once; one more is denied (too many calls awaiting approval)"),
    STORE("store", Type.STORE, "memory", "memory",
            "where rate-limit counters live: memory (this JVM) or redis://[user:password@]host:port[/db] (rediss:// for TLS), shared by a fleet"),
    STORE_PASSWORD("store_password", Type.PASSWORD, null, "unset: the password in store, if any",
            "the Redis password (best set as MCPPOLICY_STORE_PASSWORD; never shown)"),
    STORE_FAIL("store_fail", Type.CHOICE, "deny", List.of("deny", "allow"),
            "what a call with limits gets when the store cannot answer: deny (rate limit store unavailable) or allow (logged would=DENY)"),
    STORE_TIMEOUT("store_timeout", Type.TIMEOUT, "50ms", "50ms",
            "how long a decision waits for Redis; after 3 failures in a row the store fails fast and probes in the background"),
    STORE_KEY_PREFIX("store_key_prefix", Type.TEXT, "mcp-policy:", "mcp-policy:",
            "what every Redis key starts with; fleets that share a Redis but not their budgets use different ones");

    /** What a key's value is. */
    public enum Type {
        BOOLEAN, CHOICE, PATH, DURATION,
        /** {@code host:port}, {@code [::1]:port}; whether the host is loopback is checked when the endpoint starts. */
        ADDRESS,
        /** A credential: never shown, in the startup summary or anywhere else. */
        SECRET,
        /** A whole number from 1 to 10,000. */
        COUNT,
        /** {@code memory} or a Redis URL; whether a URL is valid is checked without loading the Redis client. */
        STORE,
        /** A credential of any length: never shown. */
        PASSWORD,
        /** A duration from 1 ms to 10 s ({@code 50ms}, {@code 1s}). */
        TIMEOUT,
        /** Up to 100 printable characters, no spaces. */
        TEXT
    }

    private final String key;
    private final Type type;
    private final String defaultValue;
    private final String defaultText;
    private final List<String> allowed;
    private final String meaning;

    /** A boolean key. */
    ConfigKey(String key, Type type, String defaultValue, String meaning) {
        this(key, type, defaultValue, defaultValue, List.of("true", "false"), meaning);
    }

    /** A key that takes one of {@code allowed}. */
    ConfigKey(String key, Type type, String defaultValue, List<String> allowed, String meaning) {
        this(key, type, defaultValue, defaultValue, allowed, meaning);
    }

    /** A path, address or secret, whose default docs/configuration.md states in words, or a duration. */
    ConfigKey(String key, Type type, String defaultValue, String defaultText, String meaning) {
        this(key, type, defaultValue, defaultText, List.of(), meaning);
    }

    ConfigKey(String key, Type type, String defaultValue, String defaultText, List<String> allowed, String meaning) {
        this.key = key;
        this.type = type;
        this.defaultValue = defaultValue;
        this.defaultText = defaultText;
        this.allowed = allowed;
        this.meaning = meaning;
    }

    /** The key as it is written: {@code on_error}. */
    public String key() {
        return key;
    }

    public Type type() {
        return type;
    }

    /** The value used when none is set (or the one set is not allowed); {@code null}: unset. */
    public String defaultValue() {
        return defaultValue;
    }

    /** The default as docs/configuration.md states it: the value, or what happens when the key is unset. */
    public String defaultText() {
        return defaultText;
    }

    /** The values a {@link Type#BOOLEAN} or {@link Type#CHOICE} key takes (case-insensitive); empty for the other types. */
    public List<String> allowed() {
        return allowed;
    }

    public String meaning() {
        return meaning;
    }

    /** The system property that sets it: {@code mcppolicy.on_error}. */
    public String systemProperty() {
        return AgentConfig.PROPERTY_PREFIX + key;
    }

    /** The environment variable that sets it: {@code MCPPOLICY_ON_ERROR}. */
    public String environmentVariable() {
        return AgentConfig.envName(key);
    }

    /** The key named {@code key}, or {@code null}. */
    public static ConfigKey named(String key) {
        for (ConfigKey candidate : values()) {
            if (candidate.key.equals(key)) {
                return candidate;
            }
        }
        return null;
    }
}
