package dev.mcppolicy.agent.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The agent's effective configuration (SPEC §2). Sources, highest first: agent arguments
 * ({@code key=value,key=value}), system properties ({@code -Dmcppolicy.<key>}), environment
 * ({@code MCPPOLICY_<KEY>}, dots and dashes as {@code _}), defaults.
 */
public final class AgentConfig {
    public static final String POLICY = "policy";
    public static final String ON_ERROR = "on_error";
    public static final String RELOAD = "reload";
    public static final String LOG = "log";
    public static final String AUDIT = "audit";
    public static final String DEBUG = "debug";
    public static final String LOG_ARGUMENTS = "log_arguments";
    public static final String SERIALIZE_STDIO = "serialize_stdio";

    static final Set<String> KEYS = Set.of(POLICY, ON_ERROR, RELOAD, LOG, AUDIT, DEBUG, LOG_ARGUMENTS, SERIALIZE_STDIO);
    private static final List<String> DEFAULT_POLICY_NAMES = List.of("mcp-policy.json", "mcp-policy.yaml", "mcp-policy.yml");

    /** Where decision lines go. */
    public enum LogTarget { APP, STDERR, OFF }

    private final Map<String, String> values;
    private final Map<String, String> sources;
    private final List<String> problems;

    private AgentConfig(Map<String, String> values, Map<String, String> sources, List<String> problems) {
        this.values = values;
        this.sources = sources;
        this.problems = problems;
    }

    /** Resolves the configuration from the agent arguments, this JVM's system properties and environment. */
    public static AgentConfig resolve(String agentArgs) {
        return resolve(agentArgs, new JvmLookup(false), new JvmLookup(true));
    }

    public static AgentConfig resolve(String agentArgs, Lookup systemProperties, Lookup environment) {
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, String> sources = new LinkedHashMap<>();
        List<String> problems = new java.util.ArrayList<>();
        Map<String, String> args = parseArgs(agentArgs, problems);
        for (String key : KEYS) {
            String value = args.get(key);
            String source = "agent argument";
            if (value == null) {
                value = systemProperties.get("mcppolicy." + key);
                source = "-Dmcppolicy." + key;
            }
            if (value == null) {
                String env = envName(key);
                value = environment.get(env);
                source = env;
            }
            if (value != null) {
                values.put(key, value.trim());
                sources.put(key, source);
            }
        }
        return new AgentConfig(values, sources, List.copyOf(problems));
    }

    static String envName(String key) {
        return "MCPPOLICY_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
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
            if (!KEYS.contains(key)) {
                problems.add("unknown agent argument '" + key + "' (known: " + String.join(", ", new java.util.TreeSet<>(KEYS)) + ")");
                continue;
            }
            args.put(key, value);
        }
        return args;
    }

    /**
     * The policy file: the configured one, else {@code mcp-policy.json|yaml|yml} in the working
     * directory, else beside the app's main jar; {@code null} when none exists (the caller fails closed).
     */
    public Path policyPath(Path workingDirectory, Path mainJarDirectory) {
        String configured = values.get(POLICY);
        if (configured != null && !configured.isEmpty()) {
            return workingDirectory.resolve(configured).toAbsolutePath().normalize();
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
        String where = workingDirectory.toAbsolutePath().normalize().toString();
        if (mainJarDirectory != null) {
            where += " or " + mainJarDirectory;
        }
        return String.join("|", DEFAULT_POLICY_NAMES) + " in " + where;
    }

    public boolean failOpen() {
        return "allow".equalsIgnoreCase(onError());
    }

    public String onError() {
        String value = values.getOrDefault(ON_ERROR, "deny");
        return "allow".equalsIgnoreCase(value) ? "allow" : "deny";
    }

    public LogTarget log() {
        String value = values.getOrDefault(LOG, "app").toLowerCase(Locale.ROOT);
        switch (value) {
            case "stderr":
                return LogTarget.STDERR;
            case "off":
                return LogTarget.OFF;
            default:
                return LogTarget.APP;
        }
    }

    public String audit() {
        String value = values.get(AUDIT);
        return value == null || value.isEmpty() ? null : value;
    }

    public boolean debug() {
        return Boolean.parseBoolean(values.getOrDefault(DEBUG, "false"));
    }

    public boolean logArguments() {
        return Boolean.parseBoolean(values.getOrDefault(LOG_ARGUMENTS, "false"));
    }

    /**
     * Whether the stdio transports of SDKs before 2.1.0 send serialized (their concurrent sends lose
     * messages); only an explicit {@code false} turns it off.
     */
    public boolean serializeStdio() {
        return !"false".equalsIgnoreCase(values.getOrDefault(SERIALIZE_STDIO, "true"));
    }

    public boolean reload() {
        return Boolean.parseBoolean(values.getOrDefault(RELOAD, "true"));
    }

    /** Values that were set and where each came from, for the startup summary. */
    public Map<String, String> sources() {
        return sources;
    }

    /** Mistakes in the configuration itself (unknown keys, bad values), reported at startup. */
    public List<String> problems() {
        List<String> all = new java.util.ArrayList<>(problems);
        checkOneOf(ON_ERROR, onError(), all, "deny", "allow");
        checkOneOf(LOG, log().name().toLowerCase(Locale.ROOT), all, "app", "stderr", "off");
        checkOneOf(SERIALIZE_STDIO, String.valueOf(serializeStdio()), all, "true", "false");
        return all;
    }

    private void checkOneOf(String key, String using, List<String> out, String... allowed) {
        String value = values.get(key);
        if (value != null && !List.of(allowed).contains(value.toLowerCase(Locale.ROOT))) {
            out.add(key + "=" + value + " is not one of " + String.join("|", allowed) + "; using " + using);
        }
    }

    /** System properties or environment; a class rather than a method reference: no lambda bootstrap in premain. */
    private static final class JvmLookup implements Lookup {
        private final boolean environment;

        JvmLookup(boolean environment) {
            this.environment = environment;
        }

        @Override
        public String get(String name) {
            return environment ? System.getenv(name) : System.getProperty(name);
        }
    }

    /** A read-only view of one configuration source. */
    @FunctionalInterface
    public interface Lookup {
        String get(String name);
    }
}
