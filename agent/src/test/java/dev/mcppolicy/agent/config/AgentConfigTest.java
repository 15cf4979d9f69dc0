package dev.mcppolicy.agent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcppolicy.agent.config.AgentConfig.Setting;
import dev.mcppolicy.ratelimit.redis.RedisUrl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class AgentConfigTest {
    private static final Map<String, String> NONE = Map.of();

    @Test
    void agentArgumentsBeatSystemPropertiesWhichBeatTheEnvironment() {
        AgentConfig config = AgentConfig.resolve("log=off",
                Map.of("mcppolicy.log", "stderr", "mcppolicy.on_error", "allow"),
                Map.of("MCPPOLICY_LOG", "app", "MCPPOLICY_ON_ERROR", "deny", "MCPPOLICY_AUDIT", "audit.jsonl"));
        assertThat(config.log()).isEqualTo(AgentConfig.LogTarget.OFF);
        assertThat(config.onError()).isEqualTo("allow");
        assertThat(config.failOpen()).isTrue();
        assertThat(config.audit()).isEqualTo("audit.jsonl");
        assertThat(config.setting(ConfigKey.LOG).source()).isEqualTo("agent-args");
        assertThat(config.setting(ConfigKey.ON_ERROR).source()).isEqualTo("-Dmcppolicy.on_error");
        assertThat(config.setting(ConfigKey.AUDIT).source()).isEqualTo("MCPPOLICY_AUDIT");
        assertThat(config.setting(ConfigKey.DEBUG).source()).isEqualTo("default");
        assertThat(config.problems()).isEmpty();
    }

    @Test
    void defaultsFailClosedLogToTheAppAndReloadNothing() {
        AgentConfig config = AgentConfig.resolve(null, NONE, NONE);
        assertThat(config.onError()).isEqualTo("deny");
        assertThat(config.failOpen()).isFalse();
        assertThat(config.log()).isEqualTo(AgentConfig.LogTarget.APP);
        assertThat(config.audit()).isNull();
        assertThat(config.debug()).isFalse();
        assertThat(config.logArguments()).isFalse();
        assertThat(config.reload()).as("SPEC §2: on by default").isTrue();
        assertThat(config.reloadInterval()).isEqualTo(java.time.Duration.ofSeconds(2));
        assertThat(config.serializeStdio()).isTrue();
        assertThat(config.problems()).isEmpty();
        assertThat(config.settings()).extracting(Setting::key).containsExactly(ConfigKey.values());
        assertThat(config.settings()).allMatch(Setting::isDefault)
                .allMatch(setting -> java.util.Objects.equals(setting.value(), setting.key().defaultValue()));
    }

    /** Each source, for each key that takes listed values: a value not listed is reported and the key keeps its default. */
    static Stream<Arguments> badValues() {
        Stream.Builder<Arguments> all = Stream.builder();
        for (ConfigKey key : ConfigKey.values()) {
            if (key.type() == ConfigKey.Type.PATH || key.type() == ConfigKey.Type.ADDRESS || key.type() == ConfigKey.Type.SECRET
                    || key.type() == ConfigKey.Type.STORE || key.type() == ConfigKey.Type.PASSWORD || key.type() == ConfigKey.Type.TEXT
                    || key.type() == ConfigKey.Type.TIMEOUT) {
                continue; // each has a test of its own
            }
            for (String bad : List.of("yes", "maybe", "", key.type() == ConfigKey.Type.COUNT ? "0" : "1", "deny allow")) {
                all.add(Arguments.of(key, bad, "args"));
            }
            all.add(Arguments.of(key, "yes", "property"));
            all.add(Arguments.of(key, "yes", "environment"));
        }
        return all.build();
    }

    @ParameterizedTest(name = "{0}={1} in {2}")
    @MethodSource("badValues")
    void aValueNotAllowedIsReportedWithItsSourceAndTheKeyKeepsItsDefault(ConfigKey key, String bad, String where) {
        AgentConfig config;
        String source;
        switch (where) {
            case "args":
                config = AgentConfig.resolve(key.key() + "=" + bad, NONE, NONE);
                source = "agent-args";
                break;
            case "property":
                config = AgentConfig.resolve(null, Map.of(key.systemProperty(), bad), NONE);
                source = "-D" + key.systemProperty();
                break;
            default:
                config = AgentConfig.resolve(null, NONE, Map.of(key.environmentVariable(), bad));
                source = key.environmentVariable();
        }
        String not = key.type() == ConfigKey.Type.COUNT ? "is not a whole number from 1 to 10000"
                : key.type() == ConfigKey.Type.DURATION ? "is not a duration from 100ms to 1h (500ms, 2s, 1m)"
                : "is not one of " + String.join("|", key.allowed());
        assertThat(config.problems()).singleElement().asString()
                .startsWith(key.key() + "='" + bad + "' (from " + source + ") " + not)
                .endsWith("using the default, " + key.key() + "=" + key.defaultValue());
        assertThat(config.setting(key)).isEqualTo(new Setting(key, key.defaultValue(), source, bad));
    }

    @Test
    void badValuesFallBackToTheSafeChoice() {
        AgentConfig config = AgentConfig.resolve("on_error=open,log=file,debug=yes,log_arguments=yes,reload=1,serialize_stdio=no",
                NONE, NONE);
        assertThat(config.problems()).hasSize(6);
        assertThat(config.onError()).isEqualTo("deny");
        assertThat(config.failOpen()).isFalse();
        assertThat(config.log()).isEqualTo(AgentConfig.LogTarget.APP);
        assertThat(config.debug()).isFalse();
        assertThat(config.logArguments()).isFalse();
        assertThat(config.reload()).isTrue();
        assertThat(config.serializeStdio()).isTrue();
    }

    @Test
    void aReloadIntervalIsADurationFrom100MillisecondsToAnHour() {
        assertThat(AgentConfig.resolve("reload_interval=500ms", NONE, NONE).reloadInterval()).isEqualTo(java.time.Duration.ofMillis(500));
        assertThat(AgentConfig.resolve("reload_interval=10S", NONE, NONE).reloadInterval()).isEqualTo(java.time.Duration.ofSeconds(10));
        assertThat(AgentConfig.resolve("reload_interval=60m", NONE, NONE).reloadInterval()).isEqualTo(java.time.Duration.ofHours(1));
        for (String bad : List.of("99ms", "61m", "2h", "s", "-1s", "1.5s", "12345678s")) {
            AgentConfig config = AgentConfig.resolve("reload_interval=" + bad, NONE, NONE);
            assertThat(config.problems()).as(bad).hasSize(1);
            assertThat(config.reloadInterval()).as(bad).isEqualTo(java.time.Duration.ofSeconds(2));
        }
    }

    @Test
    void aBadValueIsNotReplacedByALowerSource() {
        AgentConfig config = AgentConfig.resolve("on_error=alow", Map.of("mcppolicy.on_error", "allow"), NONE);
        assertThat(config.onError()).isEqualTo("deny");
        assertThat(config.setting(ConfigKey.ON_ERROR).source()).isEqualTo("agent-args");
        assertThat(config.problems()).singleElement().asString().contains("on_error='alow' (from agent-args) is not one of deny|allow");
    }

    @Test
    void valuesAreCaseInsensitiveAndTrimmedAndABareKeyIsTrue() {
        AgentConfig config = AgentConfig.resolve("on_error= ALLOW ,log=Stderr,debug", NONE, Map.of("MCPPOLICY_LOG_ARGUMENTS", "TRUE"));
        assertThat(config.problems()).isEmpty();
        assertThat(config.onError()).isEqualTo("allow");
        assertThat(config.log()).isEqualTo(AgentConfig.LogTarget.STDERR);
        assertThat(config.debug()).isTrue();
        assertThat(config.logArguments()).isTrue();
        assertThat(config.setting(ConfigKey.LOG_ARGUMENTS))
                .isEqualTo(new Setting(ConfigKey.LOG_ARGUMENTS, "true", "MCPPOLICY_LOG_ARGUMENTS", null));
    }

    @Test
    void anEmptyPathIsUnsetAndAnInvalidPolicyPathReadsNoPolicy(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("mcp-policy.json"), "{}");
        AgentConfig empty = AgentConfig.resolve("audit=,policy=", NONE, NONE);
        assertThat(empty.problems()).isEmpty();
        assertThat(empty.audit()).isNull();
        assertThat(empty.policyPath(dir, null)).isEqualTo(dir.resolve("mcp-policy.json"));

        AgentConfig invalid = AgentConfig.resolve(null, Map.of("mcppolicy.policy", "bad\0name.json"), NONE);
        assertThat(invalid.problems()).singleElement().asString()
                .startsWith("policy='bad\\u0000name.json' (from -Dmcppolicy.policy) is not a valid path")
                .endsWith("no policy is read, so on_error answers every call");
        assertThat(invalid.policyPath(dir, null)).as("not the default search: not what the user asked for").isNull();
        assertThat(invalid.defaultPolicySearch(dir, null)).contains("not a valid path");
    }

    @Test
    void unknownKeysInEverySourceAreReportedWithTheClosestKnownKey() {
        AgentConfig config = AgentConfig.resolve("polcy=x.json,colour=blue",
                Map.of("mcppolicy.debgu", "true", "mcppolicy.debug", "true", "other.property", "x"),
                Map.of("MCPPOLICY_LOGARGUMENTS", "true", "MCPPOLICY_ON_ERROR", "deny", "PATH", "/bin"));
        assertThat(config.problems()).containsExactlyInAnyOrder(
                "unknown key 'polcy' in agent-args; did you mean policy? (known: " + known() + ")",
                "unknown key 'colour' in agent-args (known: " + known() + ")",
                "unknown key 'debgu' in -Dmcppolicy.debgu; did you mean debug? (known: " + known() + ")",
                "unknown key 'logarguments' in MCPPOLICY_LOGARGUMENTS; did you mean log_arguments? (known: " + known() + ")");
        assertThat(config.debug()).isTrue();
        assertThat(config.setting(ConfigKey.POLICY).isDefault()).isTrue();
    }

    private static String known() {
        return "policy, on_error, log, audit, log_arguments, log_user, otel, debug, reload, reload_interval, serialize_stdio, admin, admin_token,"
                + " approval.max_pending, store, store_password, store_fail, store_timeout, store_key_prefix";
    }

    @ParameterizedTest
    @EnumSource(ConfigKey.class)
    void everyKeyIsReadFromItsPropertyAndItsEnvironmentVariable(ConfigKey key) {
        String value = key.type() == ConfigKey.Type.PATH ? "some/file" : key.type() == ConfigKey.Type.DURATION ? "500ms"
                : key.type() == ConfigKey.Type.ADDRESS ? "127.0.0.1:9464" : key.type() == ConfigKey.Type.SECRET ? "0123456789abcdefXYZ"
                : key.type() == ConfigKey.Type.COUNT ? "250" : key.type() == ConfigKey.Type.STORE ? "redis://10.0.0.5:6380/2"
                : key.type() == ConfigKey.Type.PASSWORD ? "s3cret" : key.type() == ConfigKey.Type.TIMEOUT ? "20ms"
                : key.type() == ConfigKey.Type.TEXT ? "fleet-a:"
                : key.allowed().get(key.allowed().size() - 1);
        assertThat(AgentConfig.resolve(null, Map.of("mcppolicy." + key.key(), value), NONE).setting(key))
                .isEqualTo(new Setting(key, value, "-Dmcppolicy." + key.key(), null));
        assertThat(AgentConfig.resolve(null, NONE, Map.of(AgentConfig.envName(key.key()), value)).setting(key))
                .isEqualTo(new Setting(key, value, AgentConfig.envName(key.key()), null));
    }

    @Test
    void environmentNamesUseUnderscoresForDotsAndDashes() {
        assertThat(AgentConfig.envName("on_error")).isEqualTo("MCPPOLICY_ON_ERROR");
        assertThat(AgentConfig.envName("log-arguments")).isEqualTo("MCPPOLICY_LOG_ARGUMENTS");
    }

    @Test
    void findsThePolicyInTheWorkingDirectoryThenBesideTheMainJar(@TempDir Path dir) throws Exception {
        Path cwd = Files.createDirectories(dir.resolve("cwd"));
        Path jarDir = Files.createDirectories(dir.resolve("app"));
        AgentConfig config = AgentConfig.resolve("", NONE, NONE);
        assertThat(config.policyPath(cwd, jarDir)).isNull();
        Files.writeString(jarDir.resolve("mcp-policy.yaml"), "version: '1'");
        assertThat(config.policyPath(cwd, jarDir)).isEqualTo(jarDir.resolve("mcp-policy.yaml"));
        Files.writeString(cwd.resolve("mcp-policy.json"), "{}");
        assertThat(config.policyPath(cwd, jarDir)).isEqualTo(cwd.resolve("mcp-policy.json"));
        assertThat(AgentConfig.resolve("policy=other.json", NONE, NONE).policyPath(cwd, jarDir))
                .isEqualTo(cwd.resolve("other.json"));
    }

    @Test
    void theAdminAddressIsHostAndPortAndStaysOffWhenItIsNot() {
        assertThat(AgentConfig.resolve("", NONE, NONE).admin()).isNull();
        assertThat(AgentConfig.resolve("admin=127.0.0.1:9464", NONE, NONE).admin()).containsExactly("127.0.0.1", "9464");
        assertThat(AgentConfig.resolve("admin=LocalHost:0", NONE, NONE).admin()).containsExactly("localhost", "0");
        assertThat(AgentConfig.resolve("admin=[::1]:8080", NONE, NONE).admin()).containsExactly("::1", "8080");
        assertThat(AgentConfig.resolve("admin=0.0.0.0:80", NONE, NONE).admin()).as("loopback is checked when it starts")
                .containsExactly("0.0.0.0", "80");
        for (String bad : List.of("9464", "127.0.0.1", "127.0.0.1:", ":9464", "127.0.0.1:65536", "::1:80", "host name:1", "a:b")) {
            AgentConfig config = AgentConfig.resolve(null, Map.of("mcppolicy.admin", bad), NONE);
            assertThat(config.admin()).as(bad).isNull();
            assertThat(config.problems()).as(bad).singleElement().asString()
                    .isEqualTo("admin='" + bad + "' (from -Dmcppolicy.admin) is not host:port (127.0.0.1:9464, [::1]:0); admin stays off");
        }
    }

    @Test
    void anAdminTokenShorterThanSixteenCharactersIsRefusedWithoutShowingIt() {
        AgentConfig config = AgentConfig.resolve(null, NONE, Map.of("MCPPOLICY_ADMIN_TOKEN", "short-secret"));
        assertThat(config.adminToken()).isNull();
        assertThat(config.problems()).singleElement().asString()
                .isEqualTo("admin_token (from MCPPOLICY_ADMIN_TOKEN) is shorter than 16 characters; a random one is used instead")
                .doesNotContain("short-secret");
        assertThat(AgentConfig.resolve("admin_token= Case-Kept-0123456789 ", NONE, NONE).adminToken()).isEqualTo("Case-Kept-0123456789");
        AgentConfig empty = AgentConfig.resolve("admin_token=", NONE, NONE);
        assertThat(empty.adminToken()).isNull();
        assertThat(empty.problems()).isEmpty();
    }

    @Test
    void aRedisStoreIsReadWithItsPasswordFromTheEnvironmentAndNeverShown() {
        AgentConfig config = AgentConfig.resolve("store=redis://app:inline@10.0.0.5:6380/2,store_timeout=20ms,store_fail=allow", NONE,
                Map.of("MCPPOLICY_STORE_PASSWORD", "from-env"));
        assertThat(config.problems()).isEmpty();
        assertThat(config.redisStore()).isEqualTo(new RedisUrl(false, "app", "from-env", "10.0.0.5", 6380, 2));
        assertThat(config.redisStore().masked()).isEqualTo("redis://app:***@10.0.0.5:6380/2");
        assertThat(AgentConfig.maskedStore("rediss://app:inline@h:1")).isEqualTo("rediss://app:***@h:1");
        assertThat(AgentConfig.maskedStore("redis://inline@h:1")).isEqualTo("redis://***@h:1");
        assertThat(config.storeTimeout()).isEqualTo(java.time.Duration.ofMillis(20));
        assertThat(config.storeFailOpen()).isTrue();
        assertThat(config.storeKeyPrefix()).isEqualTo("mcp-policy:");
        assertThat(AgentConfig.resolve(null, NONE, NONE).redisStore()).as("store=memory, the default").isNull();
    }

    @Test
    void aStoreThatIsNotAValidUrlIsAProblemThatNeverShowsItsPassword() {
        for (String bad : List.of("redis://:hunter2@nohost", "http://x:1", "redis://u:hunter2@h:99999", "redis://h:1/db", "memroy")) {
            AgentConfig config = AgentConfig.resolve("store=" + bad, NONE, NONE);
            assertThat(config.problems()).as(bad).singleElement().asString().startsWith("store=").contains(" is not valid: ")
                    .doesNotContain("hunter2").endsWith("every call with rate limits is denied (rate limit store unavailable) until it is fixed");
            assertThatThrownBy(config::redisStore).isInstanceOf(IllegalStateException.class).hasMessageNotContaining("hunter2");
        }
    }

    @Test
    void storeTimeoutAndKeyPrefixOutsideTheirRangeKeepTheirDefaults() {
        AgentConfig config = AgentConfig.resolve("store_timeout=0ms,store_key_prefix=has space", NONE, NONE);
        assertThat(config.problems()).hasSize(2);
        assertThat(config.storeTimeout()).isEqualTo(java.time.Duration.ofMillis(50));
        assertThat(config.storeKeyPrefix()).isEqualTo("mcp-policy:");
        assertThat(AgentConfig.resolve("store_timeout=11s", NONE, NONE).problems()).singleElement().asString()
                .contains("is not a duration from 1ms to 10s");
    }
}
