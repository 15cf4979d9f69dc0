package dev.mcppolicy.agent.config;

import dev.mcppolicy.ratelimit.redis.RedisUrl;
import dev.mcppolicy.text.DisplayText;
import dev.mcppolicy.text.Suggestions;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The agent's effective configuration (SPEC §2), validated against {@link ConfigKey}. Sources, highest
 * first: agent arguments ({@code key=value,key=value}), system properties ({@code -Dmcppolicy.<key>}),
 * environment ({@code MCPPOLICY_<KEY>}, dots and dashes as {@code _}), defaults. A value that is not
 * allowed, and a key that is not known, is a {@linkplain #problems() problem} naming where it came from;
 * the key then keeps its (safe) default. Runs in premain: no lambdas.
 */
public final class AgentConfig {
    /** Where a value given as an agent argument came from. */
    public static final String AGENT_ARGS = "agent-args";
    /** Where a value nobody set came from. */
    public static final String DEFAULT = "default";
    static final String PROPERTY_PREFIX = "mcppolicy.";
    static final String ENV_PREFIX = "MCPPOLICY_";

    /** The shortest {@link ConfigKey.Type#SECRET} taken: a shorter token is guessed too easily. */
    static final int MIN_SECRET_LENGTH = 16;

    private static final List<String> DEFAULT_POLICY_NAMES = List.of("mcp-policy.json", "mcp-policy.yaml", "mcp-policy.yml");

    /** Where decision lines go. */
    public enum LogTarget { APP, STDERR, OFF }

    /**
     * One key's effective value and where it came from ({@link #AGENT_ARGS}, {@code -Dmcppolicy.<key>},
     * {@code MCPPOLICY_<KEY>} or {@link #DEFAULT}). {@code value} is {@code null} for an unset path;
     * {@code rejected} is the value given but not allowed (then {@code value} is the default and
     * {@code source} says where the rejected one came from), else {@code null}.
     */
    public record Setting(ConfigKey key, String value, String source, String rejected) {
        public boolean isDefault() {
            return DEFAULT.equals(source);
        }
    }

    private final Map<ConfigKey, Setting> settings;
    private final List<String> problems;

    private AgentConfig(Map<ConfigKey, Setting> settings, List<String> problems) {
        this.settings = settings;
        this.problems = problems;
    }

    /** Resolves the configuration from the agent arguments, this JVM's system properties and environment. */
    public static AgentConfig resolve(String agentArgs) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(PROPERTY_PREFIX)) {
                properties.put(name, System.getProperty(name));
            }
        }
        return resolve(agentArgs, properties, System.getenv());
    }

    /** Resolves from the given sources; entries of {@code properties} and {@code environment} without the agent's prefix are ignored. */
    public static AgentConfig resolve(String agentArgs, Map<String, String> properties, Map<String, String> environment) {
        List<String> problems = new ArrayList<>();
        Map<String, String> args = parseArgs(agentArgs, problems);
        reportUnknown(properties, PROPERTY_PREFIX, "-D", problems);
        reportUnknown(environment, ENV_PREFIX, "", problems);
        Map<ConfigKey, Setting> settings = new EnumMap<>(ConfigKey.class);
        for (ConfigKey key : ConfigKey.values()) {
            String value = args.get(key.key());
            String source = AGENT_ARGS;
            if (value == null) {
                value = properties.get(key.systemProperty());
                source = "-D" + key.systemProperty();
            }
            if (value == null) {
                value = environment.get(key.environmentVariable());
                source = key.environmentVariable();
            }
            settings.put(key, value == null ? new Setting(key, key.defaultValue(), DEFAULT, null)
                    : validated(key, value, source, problems));
        }
        return new AgentConfig(settings, List.copyOf(problems));
    }

    /** The setting for {@code given}, or the default and a problem when {@code given} is not allowed. */
    private static Setting validated(ConfigKey key, String given, String source, List<String> problems) {
        String value = given.trim();
        if (key.type() == ConfigKey.Type.PATH) {
            if (value.isEmpty()) {
                return new Setting(key, null, source, null);
            }
            try {
                Paths.get(value);
                return new Setting(key, value, source, null);
            } catch (InvalidPathException e) {
                problems.add(key.key() + "=" + shown(given) + " (from " + source + ") is not a valid path (" + e.getReason() + "); "
                        + (key == ConfigKey.POLICY ? "no policy is read, so on_error answers every call" : key.key() + " stays unset"));
                return new Setting(key, null, source, given);
            }
        }
        if (key.type() == ConfigKey.Type.SECRET) {
            if (value.isEmpty()) {
                return new Setting(key, null, source, null);
            }
            if (value.length() >= MIN_SECRET_LENGTH) {
                return new Setting(key, value, source, null);
            }
            // the value itself is never shown
            problems.add(key.key() + " (from " + source + ") is shorter than " + MIN_SECRET_LENGTH + " characters; "
                    + "a random one is used instead");
            return new Setting(key, null, source, "(hidden)");
        }
        if (key.type() == ConfigKey.Type.PASSWORD) {
            return new Setting(key, value.isEmpty() ? null : value, source, null);
        }
        if (key.type() == ConfigKey.Type.STORE) {
            if (value.equalsIgnoreCase("memory")) {
                return new Setting(key, "memory", source, null);
            }
            try {
                RedisUrl.parse(value);
                return new Setting(key, value, source, null);
            } catch (IllegalArgumentException e) {
                // the value may hold a password: shown masked, never as given
                problems.add(key.key() + "=" + shown(maskedStore(value)) + " (from " + source + ") is not valid: " + e.getMessage()
                        + "; every call with rate limits is denied (rate limit store unavailable) until it is fixed");
                return new Setting(key, null, source, maskedStore(value));
            }
        }
        if (key.type() == ConfigKey.Type.TEXT) {
            boolean printable = !value.isEmpty() && value.length() <= 100;
            for (int i = 0; i < value.length() && printable; i++) {
                printable = value.charAt(i) > ' ' && value.charAt(i) < 127;
            }
            if (printable) {
                return new Setting(key, value, source, null);
            }
            problems.add(key.key() + "=" + shown(given) + " (from " + source + ") is not 1 to 100 printable characters without spaces"
                    + "; using the default, " + key.key() + "=" + key.defaultValue());
            return new Setting(key, key.defaultValue(), source, given);
        }
        String lower = value.toLowerCase(Locale.ROOT);
        if (key.type() == ConfigKey.Type.TIMEOUT) {
            Duration timeout = duration(lower, Duration.ofMillis(1), Duration.ofSeconds(10));
            if (timeout != null) {
                return new Setting(key, lower, source, null);
            }
            problems.add(key.key() + "=" + shown(given) + " (from " + source + ") is not a duration from 1ms to 10s (50ms, 1s)"
                    + "; using the default, " + key.key() + "=" + key.defaultValue());
            return new Setting(key, key.defaultValue(), source, given);
        }
        if (key.type() == ConfigKey.Type.ADDRESS) {
            if (lower.isEmpty()) {
                return new Setting(key, null, source, null);
            }
            if (hostAndPort(lower) != null) {
                return new Setting(key, lower, source, null);
            }
            problems.add(key.key() + "=" + shown(given) + " (from " + source + ") is not host:port (127.0.0.1:9464, [::1]:0); "
                    + key.key() + " stays off");
            return new Setting(key, null, source, given);
        }
        if (key.type() == ConfigKey.Type.COUNT) {
            if (count(lower) > 0) {
                return new Setting(key, lower, source, null);
            }
            problems.add(key.key() + "=" + shown(given) + " (from " + source + ") is not a whole number from 1 to 10000"
                    + "; using the default, " + key.key() + "=" + key.defaultValue());
            return new Setting(key, key.defaultValue(), source, given);
        }
        if (key.type() == ConfigKey.Type.DURATION) {
            if (duration(lower) != null) {
                return new Setting(key, lower, source, null);
            }
            problems.add(key.key() + "=" + shown(given) + " (from " + source + ") is not a duration from 100ms to 1h (500ms, 2s, 1m)"
                    + "; using the default, " + key.key() + "=" + key.defaultValue());
            return new Setting(key, key.defaultValue(), source, given);
        }
        if (key.allowed().contains(lower)) {
            return new Setting(key, lower, source, null);
        }
        problems.add(key.key() + "=" + shown(given) + " (from " + source + ") is not one of " + String.join("|", key.allowed())
                + "; using the default, " + key.key() + "=" + key.defaultValue());
        return new Setting(key, key.defaultValue(), source, given);
    }

    static String envName(String key) {
        return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    private static Map<String, String> parseArgs(String agentArgs, List<String> problems) {
        Map<String, String> args = new LinkedHashMap<>();
        if (agentArgs == null || agentArgs.isBlank()) {
            return args;
        }
        for (String pair : agentArgs.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = (eq < 0 ? pair : pair.substring(0, eq)).trim().replace('-', '_');
            String value = eq < 0 ? "true" : pair.substring(eq + 1);
            if (ConfigKey.named(key) == null) {
                problems.add(unknown(key, AGENT_ARGS));
                continue;
            }
            args.put(key, value);
        }
        return args;
    }

    /** A problem for each name with the agent's prefix that names no key ({@code -Dmcppolicy.polcy}, {@code MCPPOLICY_POLCY}). */
    private static void reportUnknown(Map<String, String> source, String prefix, String shownPrefix, List<String> problems) {
        for (String name : source.keySet()) {
            if (name.startsWith(prefix) && !isKnown(name, prefix)) {
                problems.add(unknown(name.substring(prefix.length()).toLowerCase(Locale.ROOT), shownPrefix + name));
            }
        }
    }

    private static boolean isKnown(String name, String prefix) {
        for (ConfigKey key : ConfigKey.values()) {
            if (name.equals(prefix.equals(ENV_PREFIX) ? key.environmentVariable() : key.systemProperty())) {
                return true;
            }
        }
        return false;
    }

    /** "unknown key 'polcy' in agent-args; did you mean policy? (known: ...)". */
    static String unknown(String key, String source) {
        List<String> known = new ArrayList<>();
        for (ConfigKey candidate : ConfigKey.values()) {
            known.add(candidate.key());
        }
        String closest = Suggestions.closest(key.replace('-', '_').replace('.', '_'), known);
        return "unknown key " + shown(key) + " in " + source + (closest != null ? "; did you mean " + closest + "?" : "")
                + " (known: " + String.join(", ", known) + ")";
    }

    /** A value as a problem shows it: quoted, unsafe characters escaped, at most 100 chars (see {@link DisplayText}). */
    private static String shown(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('\'');
        DisplayText.appendQuoted(value, '\'', 100, out);
        return out.append('\'').toString();
    }

    /**
     * The policy file: the configured one, else {@code mcp-policy.json|yaml|yml} in the working
     * directory, else beside the app's main jar; {@code null} when none exists or the configured path is
     * not valid (the caller fails closed).
     */
    public Path policyPath(Path workingDirectory, Path mainJarDirectory) {
        Setting policy = settings.get(ConfigKey.POLICY);
        if (policy.rejected() != null) {
            return null;
        }
        if (policy.value() != null) {
            return workingDirectory.resolve(policy.value()).toAbsolutePath().normalize();
        }
        for (Path dir : mainJarDirectory == null ? List.of(workingDirectory) : List.of(workingDirectory, mainJarDirectory)) {
            for (String name : DEFAULT_POLICY_NAMES) {
                Path candidate = dir.resolve(name);
                if (Files.isRegularFile(candidate)) {
                    return candidate.toAbsolutePath().normalize();
                }
            }
        }
        return null;
    }

    /** What the summary says was searched when no policy was found. */
    public String defaultPolicySearch(Path workingDirectory, Path mainJarDirectory) {
        Setting policy = settings.get(ConfigKey.POLICY);
        if (policy.rejected() != null) {
            return "policy=" + shown(policy.rejected()) + ", which is not a valid path";
        }
        String where = workingDirectory.toAbsolutePath().normalize().toString();
        if (mainJarDirectory != null) {
            where += " or " + mainJarDirectory;
        }
        return String.join("|", DEFAULT_POLICY_NAMES) + " in " + where;
    }

    public boolean failOpen() {
        return "allow".equals(onError());
    }

    public String onError() {
        return value(ConfigKey.ON_ERROR);
    }

    public LogTarget log() {
        String value = value(ConfigKey.LOG);
        return "stderr".equals(value) ? LogTarget.STDERR : "off".equals(value) ? LogTarget.OFF : LogTarget.APP;
    }

    /** The audit file as configured, or {@code null}: no audit. */
    public String audit() {
        return value(ConfigKey.AUDIT);
    }

    public boolean debug() {
        return flag(ConfigKey.DEBUG);
    }

    public boolean logArguments() {
        return flag(ConfigKey.LOG_ARGUMENTS);
    }

    /** Whether decisions go on the app's OpenTelemetry traces ({@code otel}). */
    public boolean traced() {
        return Boolean.parseBoolean(value(ConfigKey.OTEL));
    }

    /** Whether {@code user=} shows the verified subject's SHA-256 rather than the subject ({@code log_user=hash}). */
    public boolean hashUser() {
        return "hash".equals(value(ConfigKey.LOG_USER));
    }

    /** Whether the stdio transports of SDKs before 2.1.0 send serialized (their concurrent sends lose messages). */
    public boolean serializeStdio() {
        return flag(ConfigKey.SERIALIZE_STDIO);
    }

    /** Whether the policy file is watched and valid changes applied (SPEC §7). */
    public boolean reload() {
        return flag(ConfigKey.RELOAD);
    }

    /** How often the watched policy file is checked besides the file system's change events. */
    public Duration reloadInterval() {
        return duration(settings.get(ConfigKey.RELOAD_INTERVAL).value());
    }

    /** The admin endpoint's address as {host, port} ({@code admin}), or {@code null}: off. */
    public String[] admin() {
        String value = value(ConfigKey.ADMIN);
        return value == null ? null : hostAndPort(value);
    }

    /** The admin token the configuration gives, or {@code null}: the agent makes a random one. */
    public String adminToken() {
        return value(ConfigKey.ADMIN_TOKEN);
    }

    /** {@code host:port} or {@code [v6]:port} as {host, port}, port 0 to 65535; or {@code null}. */
    static String[] hostAndPort(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1 || text.length() - colon > 6) {
            return null;
        }
        String host = text.substring(0, colon);
        String port = text.substring(colon + 1);
        for (int i = 0; i < port.length(); i++) {
            if (port.charAt(i) < '0' || port.charAt(i) > '9') {
                return null;
            }
        }
        if (Integer.parseInt(port) > 65535) {
            return null;
        }
        if (host.startsWith("[") && host.endsWith("]") && host.length() > 2) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0 || host.indexOf('[') >= 0 || host.indexOf(']') >= 0) {
            return null;
        }
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == ':')) {
                return null;
            }
        }
        return new String[] {host, port};
    }

    /** {@code 500ms}, {@code 2s}, {@code 1m} from 100 ms to 1 h, or {@code null}. */
    static Duration duration(String text) {
        return duration(text, Duration.ofMillis(100), Duration.ofHours(1));
    }

    /** {@code 500ms}, {@code 2s}, {@code 1m} from {@code min} to {@code max}, or {@code null}. */
    static Duration duration(String text, Duration min, Duration max) {
        String unit = text.endsWith("ms") ? "ms" : text.endsWith("s") ? "s" : text.endsWith("m") ? "m" : null;
        String digits = unit == null ? "" : text.substring(0, text.length() - unit.length());
        if (digits.isEmpty() || digits.length() > 7) {
            return null;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return null;
            }
        }
        long amount = Long.parseLong(digits);
        Duration d = unit.equals("ms") ? Duration.ofMillis(amount) : unit.equals("s") ? Duration.ofSeconds(amount) : Duration.ofMinutes(amount);
        return d.compareTo(min) < 0 || d.compareTo(max) > 0 ? null : d;
    }

    /** A {@code store} value with any password replaced by {@code ***}. */
    public static String maskedStore(String value) {
        int scheme = value.indexOf("://");
        int at = value.lastIndexOf('@');
        if (scheme < 0 || at < scheme) {
            return value;
        }
        String userInfo = value.substring(scheme + 3, at);
        int colon = userInfo.indexOf(':');
        String masked = colon < 0 ? "***" : userInfo.substring(0, colon) + ":***";
        return value.substring(0, scheme + 3) + masked + value.substring(at);
    }

    /**
     * The Redis store's server ({@code store}, with {@code store_password} when set), {@code null} for
     * the in-memory store; throws {@link IllegalStateException} when {@code store} was not valid.
     */
    public RedisUrl redisStore() {
        Setting store = settings.get(ConfigKey.STORE);
        if (store.rejected() != null) {
            throw new IllegalStateException("store=" + store.rejected() + " (from " + store.source() + ") is not valid");
        }
        if ("memory".equals(store.value())) {
            return null;
        }
        RedisUrl url = RedisUrl.parse(store.value());
        String password = value(ConfigKey.STORE_PASSWORD);
        return password == null ? url : url.withPassword(password);
    }

    /** Whether a call with limits is let through when the store cannot answer ({@code store_fail=allow}). */
    public boolean storeFailOpen() {
        return "allow".equals(value(ConfigKey.STORE_FAIL));
    }

    public Duration storeTimeout() {
        return duration(value(ConfigKey.STORE_TIMEOUT), Duration.ofMillis(1), Duration.ofSeconds(10));
    }

    public String storeKeyPrefix() {
        return value(ConfigKey.STORE_KEY_PREFIX);
    }

    /** How many calls may be held for approval at once ({@code approval.max_pending}). */
    public int approvalMaxPending() {
        return count(settings.get(ConfigKey.APPROVAL_MAX_PENDING).value());
    }

    /** A whole number from 1 to 10,000, or -1. */
    static int count(String text) {
        if (text == null || text.isEmpty() || text.length() > 5) {
            return -1;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return -1;
            }
        }
        int value = Integer.parseInt(text);
        return value >= 1 && value <= 10_000 ? value : -1;
    }

    /** Every key's setting, in {@link ConfigKey} order. */
    public List<Setting> settings() {
        return List.copyOf(settings.values());
    }

    public Setting setting(ConfigKey key) {
        return settings.get(key);
    }

    /** Mistakes in the configuration itself (unknown keys, values not allowed), each naming its source; reported at startup. */
    public List<String> problems() {
        return problems;
    }

    private String value(ConfigKey key) {
        return settings.get(key).value();
    }

    private boolean flag(ConfigKey key) {
        return "true".equals(value(key));
    }
}
