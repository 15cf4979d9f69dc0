package dev.mcppolicy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.time.ManualClock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** SPEC §12: resources/read and prompts/get decided like tools/call; lists by the same rules. */
class ResourcesAndPromptsTest {
    private static final String POLICY = """
            version: "1"
            default: deny
            tools: {read_file: {}}
            resources:
              "file:///public/*": {}
              "file:///public/secret.txt": {action: deny, reason: not this one}
              "file:///etc/*": {action: deny, reason: system files are off limits}
              "db://orders/*": {limits: [{counter: orders, window: minute, max: 2}]}
              "file:///audit/*": {action: require_approval}
            prompts:
              summarize: {require: [{path: args.style, op: in, value: [short, long]}]}
              "debug_*": {action: deny}
            resource_default: deny
            prompt_default: allow
            servers:
              upstream:
                resource_default: allow
                resources: {"file:///etc/hosts": {}}
                prompts: {"*": {action: deny, reason: no prompts from upstream}}
            """;

    private final PolicyEngine engine = PolicyEngine.of(Policies.parse(POLICY), new ManualClock(java.time.Instant.EPOCH));

    private Decision read(String uri) {
        return engine.decide(ToolCall.resource(Side.SERVER, null, uri, "s1", "c1"));
    }

    private Decision prompt(String name, Map<String, ?> arguments) {
        return engine.decide(ToolCall.prompt(Side.SERVER, null, name, arguments, "s1", "c1"));
    }

    @Test
    void exactBeatsGlobAndTheLongestLiteralPrefixWins() {
        assertThat(read("file:///public/readme.md").effect()).isEqualTo(Effect.ALLOW);
        assertThat(read("file:///public/readme.md").rule()).isEqualTo("/resources/file:~1~1~1public~1*");
        Decision secret = read("file:///public/secret.txt");
        assertThat(secret.effect()).isEqualTo(Effect.DENY);
        assertThat(secret.callerMessage(Kind.RESOURCE, "file:///public/secret.txt")).isEqualTo(
                "Policy denied resource 'file:///public/secret.txt': not this one [rule /resources/file:~1~1~1public~1secret.txt]");
    }

    @Test
    void aTraversalIsMatchedWhereItLeads() {
        Decision decision = read("file:///public/%2e%2e/etc/passwd");
        assertThat(decision.effect()).isEqualTo(Effect.DENY);
        assertThat(decision.rule()).isEqualTo("/resources/file:~1~1~1etc~1*");
        assertThat(read("file:///public/..%2F..%2Fhome/me/.ssh/id_rsa").rule()).isEqualTo(Decision.DEFAULT_RULE);
    }

    @Test
    void aUriThatCannotBeNormalizedIsDenied() {
        Decision decision = read("file:///public/%zz");
        assertThat(decision.effect()).isEqualTo(Effect.DENY);
        assertThat(decision.reason()).startsWith("the resource URI cannot be normalized (a malformed percent-escape");
    }

    @Test
    void resourceDefaultDeniesWhatNoRuleNames() {
        Decision decision = read("file:///home/me/notes.txt");
        assertThat(decision.effect()).isEqualTo(Effect.DENY);
        assertThat(decision.reason()).isEqualTo("no policy rule allows this resource (resource_default: deny)");
    }

    @Test
    void limitsCountReadsAndApprovalHoldsThem() {
        assertThat(read("db://orders/1").effect()).isEqualTo(Effect.ALLOW);
        assertThat(read("db://orders/2").effect()).isEqualTo(Effect.ALLOW);
        Decision third = read("db://orders/3");
        assertThat(third.effect()).isEqualTo(Effect.DENY);
        assertThat(third.rule()).isEqualTo("/resources/db:~1~1orders~1*/limits/0");
        assertThat(third.retryAfterSeconds()).isPositive();
        assertThat(read("file:///audit/log").effect()).isEqualTo(Effect.REQUIRE_APPROVAL);
    }

    @Test
    void promptArgumentsAreConditionedWithTheTypeRule() {
        assertThat(prompt("summarize", Map.of("style", "short")).effect()).isEqualTo(Effect.ALLOW);
        Decision wrong = prompt("summarize", Map.of("style", "epic"));
        assertThat(wrong.effect()).isEqualTo(Effect.DENY);
        assertThat(wrong.rule()).isEqualTo("/prompts/summarize/require/0");
        // not a string: an object whose leaves are not all allowed values is denied, never dodged
        assertThat(prompt("summarize", Map.of("style", Map.of("x", "epic"))).effect()).isEqualTo(Effect.DENY);
        assertThat(prompt("summarize", Map.of("style", 7)).effect()).isEqualTo(Effect.DENY);
        assertThat(prompt("debug_dump", Map.of()).callerMessage(Kind.PROMPT, "debug_dump"))
                .isEqualTo("Policy denied prompt 'debug_dump': prompt is denied by policy [rule /prompts/debug_*]");
        assertThat(prompt("anything", Map.of()).effect()).isEqualTo(Effect.ALLOW);
    }

    @Test
    void listsHideWhatWouldBeDeniedOutright() {
        assertThat(engine.isListed(Kind.RESOURCE, Side.SERVER, null, "file:///public/a")).isTrue();
        assertThat(engine.isListed(Kind.RESOURCE, Side.SERVER, null, "file:///public/secret.txt")).isFalse();
        assertThat(engine.isListed(Kind.RESOURCE, Side.SERVER, null, "file:///etc/{name}")).isFalse();
        assertThat(engine.isListed(Kind.RESOURCE, Side.SERVER, null, "file:///home/x")).isFalse();
        assertThat(engine.isListed(Kind.RESOURCE, Side.SERVER, null, "db://orders/{id}")).isTrue();
        assertThat(engine.isListed(Kind.PROMPT, Side.SERVER, null, "debug_dump")).isFalse();
        assertThat(engine.isListed(Kind.PROMPT, Side.SERVER, null, "summarize")).isTrue();
    }

    @Test
    void serverSectionsHaveTheirOwnResourcesPromptsAndDefaults() {
        ToolCall hosts = ToolCall.resource(Side.CLIENT, "upstream", "file:///etc/hosts", null, null);
        assertThat(engine.decide(hosts).rule()).isEqualTo("/servers/upstream/resources/file:~1~1~1etc~1hosts");
        ToolCall passwd = ToolCall.resource(Side.CLIENT, "upstream", "file:///etc/passwd", null, null);
        assertThat(engine.decide(passwd).rule()).isEqualTo("/resources/file:~1~1~1etc~1*");
        ToolCall other = ToolCall.resource(Side.CLIENT, "upstream", "file:///home/x", null, null);
        assertThat(engine.decide(other).effect()).isEqualTo(Effect.ALLOW);
        ToolCall prompt = ToolCall.prompt(Side.CLIENT, "upstream", "summarize", Map.of("style", "short"), null, null);
        assertThat(engine.decide(prompt).reason()).isEqualTo("no prompts from upstream");
    }

    @Test
    void aPolicyWithoutTheSectionsAllowsEveryResourceAndPrompt() {
        PolicyEngine tools = PolicyEngine.of(Policies.parse("version: '1'\ndefault: deny\ntools: {a: {}}\n"), new ManualClock(java.time.Instant.EPOCH));
        assertThat(tools.decide(ToolCall.resource(Side.SERVER, null, "file:///etc/shadow", null, null)).effect())
                .isEqualTo(Effect.ALLOW);
        assertThat(tools.decide(ToolCall.prompt(Side.SERVER, null, "p", Map.of(), null, null)).effect()).isEqualTo(Effect.ALLOW);
        assertThat(tools.isListed(Kind.RESOURCE, Side.SERVER, null, "file:///etc/shadow")).isTrue();
        assertThat(tools.judgesResults()).isFalse();
        assertThat(tools.resultJudge(ToolCall.server("a", Map.of()))).isNull();
    }

    @Test
    void monitorModeLetsADeniedReadThroughAndSaysWhatItWouldDo() {
        PolicyEngine monitor = PolicyEngine.of(Policies.parse("""
                version: '1'
                mode: monitor
                resources: {"file:///etc/*": {action: deny}}
                """), new ManualClock(java.time.Instant.EPOCH));
        Decision decision = monitor.decide(ToolCall.resource(Side.SERVER, null, "file:///etc/passwd", null, null));
        assertThat(decision.effect()).isEqualTo(Effect.ALLOW);
        assertThat(decision.wouldBe()).isEqualTo(Effect.DENY);
    }
}
