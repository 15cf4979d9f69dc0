package dev.mcppolicy.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** SPEC §12 and §13 sections: the model they parse into, and every error with its pointer. */
class ResourcesPromptsResultsParsingTest {

    private static Policy parse(String json) throws PolicyException {
        return PolicyParser.parse(json, PolicyParser.Format.JSON, "policy.json");
    }

    @Test
    void parsesResourcesPromptsDefaultsAndResultRules() throws Exception {
        Policy policy = parse("""
                {"version": "1",
                 "resources": {"file:///public/*": {}, "file:///etc/*": {"action": "deny", "reason": "system files"}},
                 "prompts": {"summarize": {"require": [{"path": "args.style", "op": "in", "value": ["short"]}]}},
                 "resource_default": "deny",
                 "tools": {"run_command": {"result": {"max_bytes": 65536,
                     "redact": [{"regex": "(?i)password=\\\\S+", "with": "password=[REDACTED]"}, {"regex": "x+", "name": "xs"}],
                     "deny_if": [{"op": "regex", "value": "BEGIN (RSA|OPENSSH) PRIVATE KEY"}, {"path": "status", "op": "eq", "value": "leak"}]}}},
                 "servers": {"gh": {"prompt_default": "deny", "resources": {"repo://*": {}}}}}
                """);

        assertThat(policy.resources().keySet()).containsExactly("file:///public/*", "file:///etc/*");
        assertThat(policy.resources().get("file:///etc/*").action()).isEqualTo(Action.DENY);
        assertThat(policy.prompts().get("summarize").require()).containsExactly(new Condition("args.style", Op.IN, List.of("short")));
        assertThat(policy.resourceDefault()).isEqualTo(Action.DENY);
        assertThat(policy.promptDefault()).isEqualTo(Action.ALLOW);
        assertThat(policy.servers().get("gh").promptDefault()).isEqualTo(Action.DENY);
        assertThat(policy.servers().get("gh").resourceDefault()).isNull();
        assertThat(policy.servers().get("gh").resources()).containsOnlyKeys("repo://*");
        assertThat(policy.tools().get("run_command").result()).isEqualTo(new ResultRule(65536, false, List.of(
                new ResultRule.Redaction("regex-0", "(?i)password=\\S+", "password=[REDACTED]"),
                new ResultRule.Redaction("xs", "x+", "[REDACTED]")), List.of(
                new ResultRule.ResultCondition(new Condition("text", Op.REGEX, "BEGIN (RSA|OPENSSH) PRIVATE KEY"), true),
                new ResultRule.ResultCondition(new Condition("status", Op.EQ, "leak"), false))));
        assertThat(policy.ruleAt("/resources/file:~1~1~1etc~1*").reason()).isEqualTo("system files");
        assertThat(policy.ruleAt("/servers/gh/resources/repo:~1~1*")).isEqualTo(ToolRule.allow("repo://*"));
        assertThat(policy.policesResourcesOrPrompts()).isTrue();
    }

    @Test
    void aPolicyWithoutTheNewSectionsPolicesNoResourceOrPrompt() throws Exception {
        Policy policy = parse("{\"version\": \"1\", \"tools\": {\"a\": {}}}");
        assertThat(policy.resources()).isEmpty();
        assertThat(policy.resourceDefault()).isEqualTo(Action.ALLOW);
        assertThat(policy.policesResourcesOrPrompts()).isFalse();
        assertThat(policy.tools().get("a").result()).isNull();
    }

    @Test
    void aResultRuleWithoutMaxBytesIsBoundedAnyway() throws Exception {
        Policy policy = parse("{\"version\": \"1\", \"tools\": {\"a\": {\"result\": {\"redact\": [{\"regex\": \"x\"}]}}}}");
        assertThat(policy.tools().get("a").result().maxBytes()).isEqualTo(ResultRule.DEFAULT_MAX_BYTES);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '¦', quoteCharacter = '`', value = {
        "`\"resources\": []`¦/resources¦expected an object of rules keyed by resource URI or URI glob, got an array",
        "`\"resources\": {\"\": {}}`¦/resources/¦a resource URI or URI glob cannot be empty",
        "`\"resources\": {\"file:///public/../etc/*\": {}}`¦/resources/file:~1~1~1public~1..~1etc~1*¦resource URI 'file:///public/../etc/*' is matched in its normalized form; write it as 'file:///etc/*'",
        "`\"resources\": {\"FILE:///a\": {}}`¦/resources/FILE:~1~1~1a¦resource URI 'FILE:///a' is matched in its normalized form; write it as 'file:///a'",
        "`\"resources\": {\"file:///a%zz\": {}}`¦/resources/file:~1~1~1a%zz¦resource URI 'file:///a%zz' cannot be normalized (a malformed percent-escape, or escaped bytes that are not UTF-8)",
        "`\"resources\": {\"file:///a\": \"allow\"}`¦/resources/file:~1~1~1a¦expected a rule object ({} allows the resource), got the string \"allow\"",
        "`\"resources\": {\"file:///a\": {\"arguments\": {}}}`¦/resources/file:~1~1~1a/arguments¦a resource read has no arguments to validate; test its URI with a condition on the path \"uri\"",
        "`\"prompts\": {\"p\": {\"arguments\": \"input_schema\"}}`¦/prompts/p/arguments¦a prompt advertises no input schema; give a JSON Schema object for its arguments, got the string \"input_schema\"",
        "`\"prompts\": {\"p*\": {}, \"p?\": {}}`¦/prompts/p?¦glob 'p?' ties with glob 'p*': both have the literal prefix 'p', so neither takes precedence; make one prefix longer or merge the rules",
        "`\"resource_default\": \"block\"`¦/resource_default¦expected one of allow|deny, got the string \"block\"",
        "`\"servers\": {\"gh\": {\"prompt_default\": 1}}`¦/servers/gh/prompt_default¦expected one of allow|deny, got the number 1",
        "`\"tools\": {\"t\": {\"result\": []}}`¦/tools/t/result¦expected an object with max_bytes, redact and deny_if, got an array",
        "`\"tools\": {\"t\": {\"result\": {\"max\": 1}}}`¦/tools/t/result/max¦unknown key 'max'; expected one of max_bytes, redact, deny_if",
        "`\"tools\": {\"t\": {\"result\": {\"max_bytes\": 0}}}`¦/tools/t/result/max_bytes¦expected a whole number of bytes from 1 to 1073741824 (1 GiB), got the number 0",
        "`\"tools\": {\"t\": {\"result\": {\"max_bytes\": \"64k\"}}}`¦/tools/t/result/max_bytes¦expected a whole number of bytes from 1 to 1073741824 (1 GiB), got the string \"64k\"",
        "`\"tools\": {\"t\": {\"result\": {\"redact\": \"secrets\"}}}`¦/tools/t/result/redact¦expected an array of \"secrets\" and {regex, with}, got the string \"secrets\"",
        "`\"tools\": {\"t\": {\"result\": {\"redact\": [\"passwords\"]}}}`¦/tools/t/result/redact/0¦expected \"secrets\" (the built-in detectors) or {regex, with}, got the string \"passwords\"",
        "`\"tools\": {\"t\": {\"result\": {\"redact\": [\"secrets\", \"secrets\"]}}}`¦/tools/t/result/redact/1¦\"secrets\" is listed twice",
        "`\"tools\": {\"t\": {\"result\": {\"redact\": [{\"with\": \"x\"}]}}}`¦/tools/t/result/redact/0¦missing required key 'regex'",
        "`\"tools\": {\"t\": {\"result\": {\"redact\": [{\"regex\": \"(a\"}]}}}`¦/tools/t/result/redact/0/regex¦invalid regular expression (RE2 syntax): missing closing )",
        "`\"tools\": {\"t\": {\"result\": {\"redact\": [{\"regex\": \"a*\"}]}}}`¦/tools/t/result/redact/0/regex¦the regular expression matches the empty string, so it would redact between every two characters",
        "`\"tools\": {\"t\": {\"result\": {\"redact\": [{\"regex\": \"a\", \"with\": 1}]}}}`¦/tools/t/result/redact/0/with¦expected the replacement text, got the number 1",
        "`\"tools\": {\"t\": {\"result\": {\"redact\": [{\"regex\": \"a\", \"name\": \"a b\"}]}}}`¦/tools/t/result/redact/0/name¦expected a name of 1 to 64 letters, digits, '_', '.' or '-' (it is logged as redacted=<name>:<count>), got the string \"a b\"",
        "`\"tools\": {\"t\": {\"result\": {\"redact\": [{\"regex\": \"a\", \"replace\": \"b\"}]}}}`¦/tools/t/result/redact/0/replace¦unknown key 'replace'; expected one of regex, with, name",
        "`\"tools\": {\"t\": {\"result\": {\"deny_if\": {}}}}`¦/tools/t/result/deny_if¦expected an array of conditions {op, value, path}, got an object",
        "`\"tools\": {\"t\": {\"result\": {\"deny_if\": [\"BEGIN\"]}}}`¦/tools/t/result/deny_if/0¦expected a condition {op, value, path}, got the string \"BEGIN\"",
        "`\"tools\": {\"t\": {\"result\": {\"deny_if\": [{\"op\": \"regex\", \"value\": \"(\"}]}}}`¦/tools/t/result/deny_if/0/value¦invalid regular expression (RE2 syntax): missing closing )",
        "`\"tools\": {\"t\": {\"result\": {\"deny_if\": [{\"path\": \"\", \"op\": \"exists\"}]}}}`¦/tools/t/result/deny_if/0/path¦expected a dot path into the structured content like \"command\" or \"options.0.name\", got the string \"\"",
        "`\"tools\": {\"t\": {\"action\": \"deny\", \"result\": {}}}`¦/tools/t/result¦a rule whose action is deny never sees an answer to judge",
    })
    void rejectsWithThePointerAndWhatIsWrong(String member, String pointer, String message) {
        PolicyException thrown = catchThrowableOfType(PolicyException.class, () -> parse("{\"version\": \"1\", " + member + "}"));
        assertThat(thrown).as(member).isNotNull();
        assertThat(thrown.errors()).extracting(PolicyError::pointer, PolicyError::message).containsExactly(
                org.assertj.core.groups.Tuple.tuple(pointer, message));
    }

    @Test
    void theServerSectionKeysIncludeTheNewSections() {
        PolicyException thrown = catchThrowableOfType(PolicyException.class,
                () -> parse("{\"version\": \"1\", \"servers\": {\"gh\": {\"resource\": {}}}}"));
        assertThat(thrown.errors().get(0).message()).isEqualTo("unknown key 'resource' (did you mean 'resources'?); expected one of"
                + " default, hide, tools, resources, prompts, resource_default, prompt_default, pin, pin_new");
        assertThat(Map.of()).isEmpty();
    }
}
