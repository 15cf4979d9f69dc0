package dev.mcppolicy.policy.internal;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.mcppolicy.json.JsonPointers;
import dev.mcppolicy.json.JsonValues;
import dev.mcppolicy.policy.Action;
import dev.mcppolicy.policy.Algorithm;
import dev.mcppolicy.policy.Approval;
import dev.mcppolicy.policy.Condition;
import dev.mcppolicy.policy.Durations;
import dev.mcppolicy.policy.Glob;
import dev.mcppolicy.policy.Identity;
import dev.mcppolicy.policy.Limit;
import dev.mcppolicy.policy.Mode;
import dev.mcppolicy.policy.Op;
import dev.mcppolicy.policy.Pinning;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyError;
import dev.mcppolicy.policy.ResourceUris;
import dev.mcppolicy.policy.ResultRule;
import dev.mcppolicy.policy.Scope;
import dev.mcppolicy.policy.ServerPolicy;
import dev.mcppolicy.policy.ToolRule;
import dev.mcppolicy.schema.JsonSchema;
import dev.mcppolicy.text.Suggestions;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a document tree into a {@link Policy}, checking every key and value against SPEC §3 and
 * recording every problem (with its pointer and position) rather than stopping at the first.
 */
public final class PolicyBinder {
    private static final List<String> TOP_KEYS = List.of("version", "default", "mode", "hide", "all_tools", "tools", "servers",
            "resources", "prompts", "resource_default", "prompt_default", "pin", "pins", "pin_new", "identity");
    private static final List<String> RULE_KEYS = List.of("action", "reason", "require", "deny_if", "limits", "arguments", "approval", "mode",
            "result");
    private static final List<String> RESULT_KEYS = List.of("max_bytes", "redact", "deny_if");
    private static final List<String> REDACTION_KEYS = List.of("regex", "with", "name");
    private static final List<String> RESULT_CONDITION_KEYS = List.of("op", "value", "path");
    /** The largest {@code max_bytes}: 1 GiB. */
    private static final long MAX_RESULT_BYTES = 1L << 30;
    private static final List<String> LIMIT_KEYS = List.of("counter", "window", "max", "scope", "algorithm");
    private static final List<String> CONDITION_KEYS = List.of("path", "op", "value");
    private static final List<String> SERVER_KEYS = List.of("default", "hide", "tools", "resources", "prompts", "resource_default",
            "prompt_default", "pin", "pin_new");
    private static final List<String> ALL_TOOLS_KEYS = List.of("limits");
    private static final List<String> APPROVAL_KEYS = List.of("timeout", "via");

    private final List<PolicyError> errors;
    private final Map<String, DeclaredLimit> counters = new HashMap<>();

    public PolicyBinder(List<PolicyError> errors) {
        this.errors = errors;
    }

    private record DeclaredLimit(Limit limit, String pointer) {
    }

    /** The three sections of rules (SPEC §3, §12): what their keys name, for the errors. */
    private enum Section {
        TOOLS("a tool name or glob", "tool name or glob"),
        RESOURCES("a resource URI or URI glob", "resource URI or URI glob"),
        PROMPTS("a prompt name or glob", "prompt name or glob");

        final String key;
        final String keyedBy;

        Section(String key, String keyedBy) {
            this.key = key;
            this.keyedBy = keyedBy;
        }
    }

    public Policy bind(Node root, String sha256) {
        if (!root.is(Node.Kind.OBJECT)) {
            error("", root, "expected the policy to be an object, got " + root.describe());
            return null;
        }
        Map<String, Node> fields = root.fields();
        checkKeys(fields, "", TOP_KEYS);

        String version = version(fields.get("version"), root);
        Action defaultAction = defaultAction(fields.get("default"), "/default", Action.DENY);
        Mode mode = mode(fields.get("mode"), "/mode", Mode.ENFORCE);
        List<String> hide = hide(fields.get("hide"), "/hide");
        List<Limit> allToolsLimits = allToolsLimits(fields.get("all_tools"));
        Map<String, ToolRule> tools = rules(fields.get("tools"), "/tools", Section.TOOLS);
        Map<String, ServerPolicy> servers = servers(fields.get("servers"));
        Map<String, ToolRule> resources = rules(fields.get("resources"), "/resources", Section.RESOURCES);
        Map<String, ToolRule> prompts = rules(fields.get("prompts"), "/prompts", Section.PROMPTS);
        Action resourceDefault = defaultAction(fields.get("resource_default"), "/resource_default", Action.ALLOW);
        Action promptDefault = defaultAction(fields.get("prompt_default"), "/prompt_default", Action.ALLOW);
        Pinning pinning = new Pinning(pin(fields.get("pin"), "/pin"), pinsFile(fields.get("pins")),
                defaultAction(fields.get("pin_new"), "/pin_new", null));
        Identity identity = identity(fields.get("identity"));
        return new Policy(version, defaultAction, mode, hide, allToolsLimits, tools, servers, resources, prompts,
                resourceDefault, promptDefault, pinning, identity, sha256);
    }

    private static final List<String> IDENTITY_KEYS = List.of("jwt");
    private static final List<String> JWT_KEYS = List.of("jwks", "issuer", "audience");

    /** {@code identity: {jwt: {jwks, issuer, audience}}} (issue 32); absent: {@link Identity#NONE}. */
    private Identity identity(Node node) {
        if (node == null) {
            return Identity.NONE;
        }
        if (!node.is(Node.Kind.OBJECT)) {
            error("/identity", node, "expected an object {jwt: {jwks, issuer, audience}}, got " + node.describe());
            return Identity.NONE;
        }
        checkKeys(node.fields(), "/identity", IDENTITY_KEYS);
        Node jwtNode = node.fields().get("jwt");
        if (jwtNode == null) {
            error("/identity", node, "missing required key 'jwt'");
            return Identity.NONE;
        }
        if (!jwtNode.is(Node.Kind.OBJECT)) {
            error("/identity/jwt", jwtNode, "expected an object {jwks, issuer, audience}, got " + jwtNode.describe());
            return Identity.NONE;
        }
        Map<String, Node> fields = jwtNode.fields();
        checkKeys(fields, "/identity/jwt", JWT_KEYS);
        String jwks = requiredText(fields, jwtNode, "/identity/jwt", "jwks",
                "the key set: an https:// URL of a JWK set, or a file holding one (relative to the policy file)");
        if (jwks != null && jwks.startsWith("http://") && !loopbackUrl(jwks)) {
            error("/identity/jwt/jwks", fields.get("jwks"), "a key set fetched over plain http can be swapped on the way;"
                    + " use https:// (http:// only for a loopback host)");
            jwks = null;
        }
        String issuer = requiredText(fields, jwtNode, "/identity/jwt", "issuer", "the iss a token must carry");
        String audience = requiredText(fields, jwtNode, "/identity/jwt", "audience", "an aud a token must carry");
        if (jwks == null || issuer == null || audience == null) {
            return Identity.NONE;
        }
        return new Identity(new Identity.Jwt(jwks, issuer, audience));
    }

    private String requiredText(Map<String, Node> fields, Node parent, String at, String key, String what) {
        Node value = fields.get(key);
        if (value == null) {
            error(at, parent, "missing required key '" + key + "' (" + what + ")");
            return null;
        }
        if (!value.is(Node.Kind.STRING) || value.text().isBlank()) {
            error(at + "/" + key, value, "expected " + what + ", got " + value.describe());
            return null;
        }
        return value.text();
    }

    private static boolean loopbackUrl(String url) {
        String rest = url.substring("http://".length());
        String host = rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest;
        if (host.startsWith("[")) {
            return host.startsWith("[::1]");
        }
        host = host.contains(":") ? host.substring(0, host.indexOf(':')) : host;
        return host.equals("localhost") || host.startsWith("127.");
    }

    private String version(Node node, Node root) {
        if (node == null) {
            error("", root, "missing required key 'version'; expected \"1\"");
            return "1";
        }
        boolean one = node.is(Node.Kind.STRING) && node.text().equals("1")
                || node.is(Node.Kind.NUMBER) && JsonValues.jsonEquals(node.number(), 1);
        if (!one) {
            error("/version", node, "unsupported version " + node.describe() + "; expected \"1\"");
        }
        return "1";
    }

    private Action defaultAction(Node node, String at, Action fallback) {
        if (node == null) {
            return fallback;
        }
        String word = word(node, at, List.of("allow", "deny"));
        return word == null ? fallback : word.equals("allow") ? Action.ALLOW : Action.DENY;
    }

    private Mode mode(Node node, String at, Mode fallback) {
        if (node == null) {
            return fallback;
        }
        String word = word(node, at, List.of("enforce", "monitor"));
        return word == null ? fallback : word.equals("monitor") ? Mode.MONITOR : Mode.ENFORCE;
    }

    private List<String> hide(Node node, String at) {
        List<String> names = new ArrayList<>();
        if (node == null) {
            return names;
        }
        if (!node.is(Node.Kind.ARRAY)) {
            error(at, node, "expected an array of tool names or globs, got " + node.describe());
            return names;
        }
        List<Node> items = node.items();
        for (int i = 0; i < items.size(); i++) {
            Node item = items.get(i);
            if (!item.is(Node.Kind.STRING) || item.text().isEmpty()) {
                error(at + "/" + i, item, "expected a tool name or glob, got " + item.describe());
            } else {
                names.add(item.text());
            }
        }
        return names;
    }

    private List<Limit> allToolsLimits(Node node) {
        if (node == null) {
            return List.of();
        }
        if (!node.is(Node.Kind.OBJECT)) {
            error("/all_tools", node, "expected an object with 'limits', got " + node.describe());
            return List.of();
        }
        checkKeys(node.fields(), "/all_tools", ALL_TOOLS_KEYS);
        return limits(node.fields().get("limits"), "/all_tools");
    }

    private Map<String, ToolRule> rules(Node node, String at, Section kind) {
        Map<String, ToolRule> rules = new LinkedHashMap<>();
        if (node == null) {
            return rules;
        }
        if (!node.is(Node.Kind.OBJECT)) {
            error(at, node, "expected an object of rules keyed by " + kind.keyedBy + ", got " + node.describe());
            return rules;
        }
        Map<String, String> globsByPrefix = new HashMap<>();
        for (Map.Entry<String, Node> entry : node.fields().entrySet()) {
            String key = entry.getKey();
            String ruleAt = at + "/" + JsonPointers.escape(key);
            if (key.isEmpty()) {
                error(ruleAt, entry.getValue(), kind.key + " cannot be empty");
                continue;
            }
            if (kind == Section.RESOURCES) {
                String normalized = ResourceUris.normalizeOrNull(key);
                if (!key.equals(normalized)) {
                    error(ruleAt, entry.getValue(), normalized == null
                            ? "resource URI '" + key + "' cannot be normalized (" + ResourceUris.problem(key) + ")"
                            : "resource URI '" + key + "' is matched in its normalized form; write it as '" + normalized + "'");
                    continue;
                }
            }
            if (Glob.isGlob(key)) {
                String prefix = Glob.literalPrefix(key);
                String rival = globsByPrefix.putIfAbsent(prefix, key);
                if (rival != null) {
                    error(ruleAt, entry.getValue(), "glob '" + key + "' ties with glob '" + rival
                            + "': both have the literal prefix '" + prefix + "', so neither takes precedence; "
                            + "make one prefix longer or merge the rules");
                }
            }
            ToolRule rule = rule(key, entry.getValue(), ruleAt, kind);
            if (rule != null) {
                rules.put(key, rule);
            }
        }
        return rules;
    }

    private ToolRule rule(String key, Node node, String at, Section kind) {
        if (node.is(Node.Kind.NULL)) {
            return ToolRule.allow(key);
        }
        if (!node.is(Node.Kind.OBJECT)) {
            error(at, node, "expected a rule object ({} allows the " + kind.name().toLowerCase(java.util.Locale.ROOT)
                    .replaceAll("s$", "") + "), got " + node.describe());
            return null;
        }
        Map<String, Node> fields = node.fields();
        checkKeys(fields, at, RULE_KEYS);
        Action action = Action.ALLOW;
        boolean actionKnown = true;
        Node actionNode = fields.get("action");
        if (actionNode != null) {
            String word = word(actionNode, at + "/action", List.of("allow", "deny", "require_approval"));
            if (word != null) {
                action = word.equals("deny") ? Action.DENY : word.equals("allow") ? Action.ALLOW : Action.REQUIRE_APPROVAL;
            }
            actionKnown = word != null;
        }
        String reason = null;
        Node reasonNode = fields.get("reason");
        if (reasonNode != null) {
            if (reasonNode.is(Node.Kind.STRING)) {
                reason = reasonNode.text();
            } else {
                error(at + "/reason", reasonNode, "expected a string, got " + reasonNode.describe());
            }
        }
        List<Condition> require = conditions(fields.get("require"), at + "/require");
        List<Condition> denyIf = conditions(fields.get("deny_if"), at + "/deny_if");
        List<Limit> limits = limits(fields.get("limits"), at);

        JsonSchema schema = null;
        boolean inputSchema = false;
        Node arguments = fields.get("arguments");
        if (arguments != null && kind == Section.RESOURCES) {
            error(at + "/arguments", arguments, "a resource read has no arguments to validate; test its URI with a condition"
                    + " on the path \"uri\"");
        } else if (arguments != null && kind == Section.PROMPTS && arguments.is(Node.Kind.STRING)) {
            error(at + "/arguments", arguments, "a prompt advertises no input schema; give a JSON Schema object for its"
                    + " arguments, got " + arguments.describe());
        } else if (arguments != null) {
            if (arguments.is(Node.Kind.STRING)) {
                if (arguments.text().equals("input_schema")) {
                    inputSchema = true;
                } else {
                    error(at + "/arguments", arguments, "expected a JSON Schema object or \"input_schema\", got " + arguments.describe());
                }
            } else if (arguments.is(Node.Kind.OBJECT) || arguments.is(Node.Kind.BOOLEAN)) {
                String schemaAt = at + "/arguments";
                schema = JsonSchema.compile(arguments.toPlain(), true,
                        (pointer, message) -> error(schemaAt + pointer, locate(arguments, pointer), message));
            } else {
                error(at + "/arguments", arguments, "expected a JSON Schema object or \"input_schema\", got " + arguments.describe());
            }
        }

        Approval approval = null;
        Node approvalNode = fields.get("approval");
        if (approvalNode != null) {
            approval = approval(approvalNode, at + "/approval");
            if (actionKnown && action != Action.REQUIRE_APPROVAL) {
                error(at + "/approval", approvalNode, "'approval' only applies to a rule whose action is require_approval");
            }
        } else if (action == Action.REQUIRE_APPROVAL) {
            approval = Approval.DEFAULT;
        }
        Mode mode = fields.containsKey("mode") ? mode(fields.get("mode"), at + "/mode", null) : null;
        ResultRule result = fields.containsKey("result") ? result(fields.get("result"), at + "/result") : null;
        if (result != null && actionKnown && action == Action.DENY) {
            error(at + "/result", fields.get("result"), "a rule whose action is deny never sees an answer to judge");
        }
        return new ToolRule(key, action, reason, require, denyIf, limits, schema, inputSchema, approval, mode, result);
    }

    /** {@code result: {max_bytes, redact, deny_if}} (SPEC §13). */
    private ResultRule result(Node node, String at) {
        if (!node.is(Node.Kind.OBJECT)) {
            error(at, node, "expected an object with max_bytes, redact and deny_if, got " + node.describe());
            return null;
        }
        Map<String, Node> fields = node.fields();
        checkKeys(fields, at, RESULT_KEYS);
        long maxBytes = ResultRule.DEFAULT_MAX_BYTES;
        Node maxNode = fields.get("max_bytes");
        if (maxNode != null) {
            if (!maxNode.is(Node.Kind.NUMBER) || !JsonValues.isIntegral(maxNode.number())
                    || JsonValues.compareNumbers(maxNode.number(), 1) < 0
                    || JsonValues.compareNumbers(maxNode.number(), MAX_RESULT_BYTES) > 0) {
                error(at + "/max_bytes", maxNode, "expected a whole number of bytes from 1 to " + MAX_RESULT_BYTES + " (1 GiB), got "
                        + maxNode.describe());
            } else {
                maxBytes = maxNode.number().longValue();
            }
        }
        boolean secrets = false;
        List<ResultRule.Redaction> redactions = new ArrayList<>();
        Node redactNode = fields.get("redact");
        if (redactNode != null && !redactNode.is(Node.Kind.ARRAY)) {
            error(at + "/redact", redactNode, "expected an array of \"secrets\" and {regex, with}, got " + redactNode.describe());
        } else if (redactNode != null) {
            List<Node> items = redactNode.items();
            for (int i = 0; i < items.size(); i++) {
                Node item = items.get(i);
                String itemAt = at + "/redact/" + i;
                if (item.is(Node.Kind.STRING) && item.text().equals("secrets")) {
                    if (secrets) {
                        error(itemAt, item, "\"secrets\" is listed twice");
                    }
                    secrets = true;
                } else if (item.is(Node.Kind.OBJECT)) {
                    ResultRule.Redaction redaction = redaction(item, itemAt, i);
                    if (redaction != null) {
                        redactions.add(redaction);
                    }
                } else {
                    error(itemAt, item, "expected \"secrets\" (the built-in detectors) or {regex, with}, got " + item.describe());
                }
            }
        }
        List<ResultRule.ResultCondition> denyIf = new ArrayList<>();
        Node denyNode = fields.get("deny_if");
        if (denyNode != null && !denyNode.is(Node.Kind.ARRAY)) {
            error(at + "/deny_if", denyNode, "expected an array of conditions {op, value, path}, got " + denyNode.describe());
        } else if (denyNode != null) {
            List<Node> items = denyNode.items();
            for (int i = 0; i < items.size(); i++) {
                Node item = items.get(i);
                boolean onText = item.is(Node.Kind.OBJECT) && !item.fields().containsKey("path");
                Condition condition = condition(item, at + "/deny_if/" + i, onText);
                if (condition != null) {
                    denyIf.add(new ResultRule.ResultCondition(condition, onText));
                }
            }
        }
        return new ResultRule(maxBytes, secrets, redactions, denyIf);
    }

    private ResultRule.Redaction redaction(Node node, String at, int index) {
        Map<String, Node> fields = node.fields();
        checkKeys(fields, at, REDACTION_KEYS);
        Node regexNode = fields.get("regex");
        String regex = null;
        if (regexNode == null) {
            error(at, node, "missing required key 'regex'");
        } else if (!regexNode.is(Node.Kind.STRING) || regexNode.text().isEmpty()) {
            error(at + "/regex", regexNode, "expected a regular expression string, got " + regexNode.describe());
        } else if (regexNode.text().length() > JsonSchema.MAX_PATTERN_LENGTH) {
            error(at + "/regex", regexNode, "a regular expression may be at most " + JsonSchema.MAX_PATTERN_LENGTH
                    + " characters long, got " + regexNode.text().length());
        } else {
            try {
                if (Pattern.compile(regexNode.text()).matches("")) {
                    error(at + "/regex", regexNode, "the regular expression matches the empty string, so it would redact between"
                            + " every two characters");
                } else {
                    regex = regexNode.text();
                }
            } catch (PatternSyntaxException e) {
                error(at + "/regex", regexNode, "invalid regular expression (RE2 syntax): " + e.getDescription());
            }
        }
        String with = "[REDACTED]";
        Node withNode = fields.get("with");
        if (withNode != null) {
            if (withNode.is(Node.Kind.STRING)) {
                with = withNode.text();
            } else {
                error(at + "/with", withNode, "expected the replacement text, got " + withNode.describe());
            }
        }
        String name = "regex-" + index;
        Node nameNode = fields.get("name");
        if (nameNode != null) {
            if (nameNode.is(Node.Kind.STRING) && nameNode.text().matches("[A-Za-z0-9_.-]{1,64}")) {
                name = nameNode.text();
            } else {
                error(at + "/name", nameNode, "expected a name of 1 to 64 letters, digits, '_', '.' or '-' (it is logged as"
                        + " redacted=<name>:<count>), got " + nameNode.describe());
            }
        }
        return regex == null ? null : new ResultRule.Redaction(name, regex, with);
    }

    private Approval approval(Node node, String at) {
        if (!node.is(Node.Kind.OBJECT)) {
            error(at, node, "expected an object like {\"timeout\": \"10m\"}, got " + node.describe());
            return Approval.DEFAULT;
        }
        checkKeys(node.fields(), at, APPROVAL_KEYS);
        Node timeout = node.fields().get("timeout");
        Duration duration = timeout == null ? null : duration(timeout, at + "/timeout");
        return new Approval(duration == null ? Approval.DEFAULT_TIMEOUT : duration, via(node.fields().get("via"), at + "/via"));
    }

    /**
     * {@code approval.via}: {@code admin} (the default) or {@code elicitation}. Elicitation asks the MCP client
     * of a server-side call, so a rule under {@code /servers} (client side only) cannot use it.
     */
    private Approval.Via via(Node node, String at) {
        if (node == null) {
            return Approval.Via.ADMIN;
        }
        List<String> words = new ArrayList<>();
        for (Approval.Via via : Approval.Via.values()) {
            words.add(via.word());
        }
        String word = word(node, at, words);
        if (word == null) {
            return Approval.Via.ADMIN;
        }
        Approval.Via via = Approval.Via.values()[words.indexOf(word)];
        if (via == Approval.Via.ELICITATION && at.startsWith("/servers/")) {
            error(at, node, "\"elicitation\" asks the MCP client that called a server-side tool; rules under /servers are"
                    + " client side only, where the agent's own app is that client: use \"admin\"");
            return Approval.Via.ADMIN;
        }
        return via;
    }

    private List<Condition> conditions(Node node, String at) {
        List<Condition> conditions = new ArrayList<>();
        if (node == null) {
            return conditions;
        }
        if (!node.is(Node.Kind.ARRAY)) {
            error(at, node, "expected an array of conditions {path, op, value}, got " + node.describe());
            return conditions;
        }
        List<Node> items = node.items();
        for (int i = 0; i < items.size(); i++) {
            Condition condition = condition(items.get(i), at + "/" + i, false);
            if (condition != null) {
                conditions.add(condition);
            }
        }
        return conditions;
    }

    /** A condition; {@code onText}: a result's {@code deny_if} without a path, which tests the answer's text. */
    private Condition condition(Node node, String at, boolean onText) {
        boolean result = at.contains("/result/");
        if (!node.is(Node.Kind.OBJECT)) {
            error(at, node, "expected a condition " + (result ? "{op, value, path}" : "{path, op, value}") + ", got " + node.describe());
            return null;
        }
        Map<String, Node> fields = node.fields();
        checkKeys(fields, at, result ? RESULT_CONDITION_KEYS : CONDITION_KEYS);
        String path = null;
        Node pathNode = fields.get("path");
        if (onText) {
            path = ResultRule.ResultCondition.TEXT_PATH;
        } else if (pathNode == null) {
            error(at, node, "missing required key 'path'");
        } else if (pathNode.is(Node.Kind.STRING) && pathNode.text().equals("args")) {
            // the leading "args." is PolicyLayer's prefix, so the argument literally named args is args.args
            error(at + "/path", pathNode, "\"args\" alone names all the arguments; for the argument named args write \"args.args\"");
        } else if (!pathNode.is(Node.Kind.STRING) || !validPath(pathNode.text())) {
            error(at + "/path", pathNode, "expected a dot path into the " + (result ? "structured content" : "arguments")
                    + " like \"command\" or \"options.0.name\", got " + pathNode.describe());
        } else if (!result && callerPathError(pathNode.text()) != null) {
            error(at + "/path", pathNode, callerPathError(pathNode.text()));
        } else {
            path = pathNode.text();
        }
        Op op = null;
        Node opNode = fields.get("op");
        if (opNode == null) {
            error(at, node, "missing required key 'op'");
        } else {
            List<String> words = new ArrayList<>();
            for (Op candidate : Op.values()) {
                words.add(candidate.word());
            }
            String word = word(opNode, at + "/op", words);
            if (word != null) {
                op = Op.values()[words.indexOf(word)];
            }
        }
        Node valueNode = fields.get("value");
        Object value = op == null ? null : conditionValue(op, valueNode, node, at);
        if (path == null || op == null) {
            return null;
        }
        return new Condition(path, op, value);
    }

    /**
     * What is wrong with a {@code caller.*} path (issue 32), or {@code null} when it is one (or no caller path at all):
     * {@code caller.sub}, {@code caller.name}, {@code caller.roles}, {@code caller.verified} or
     * {@code caller.claims.<name>} (a claim, and a dot path into it). The argument named caller is {@code args.caller}.
     */
    static String callerPathError(String path) {
        if (!Condition.isCallerPath(path)) {
            return null;
        }
        String field = path.equals("caller") ? "" : path.substring("caller.".length());
        String head = field.contains(".") ? field.substring(0, field.indexOf('.')) : field;
        if (head.equals("claims") ? field.length() > "claims.".length() : Condition.CALLER_FIELDS.contains(head) && head.equals(field)) {
            return null;
        }
        String expected = "expected caller.sub, caller.name, caller.roles, caller.claims.<name> or caller.verified"
                + " (an argument named caller is args.caller)";
        if (head.equals("claims")) {
            return "caller.claims needs a claim's name after it, like caller.claims.email; " + expected;
        }
        if (Condition.CALLER_FIELDS.contains(head)) {
            return "caller." + head + " has no fields; " + expected;
        }
        String suggestion = Suggestions.closest(head, Condition.CALLER_FIELDS);
        return "unknown caller field '" + head + "'" + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)") + "; " + expected;
    }

    private static boolean validPath(String path) {
        return !path.isEmpty() && !path.startsWith(".") && !path.endsWith(".") && !path.contains("..");
    }

    private Object conditionValue(Op op, Node valueNode, Node condition, String at) {
        String valueAt = at + "/value";
        if (op == Op.EXISTS) {
            if (valueNode == null) {
                return Boolean.TRUE;
            }
            if (!valueNode.is(Node.Kind.BOOLEAN)) {
                error(valueAt, valueNode, "op 'exists' takes true, false or no value, got " + valueNode.describe());
                return Boolean.TRUE;
            }
            return valueNode.bool();
        }
        if (valueNode == null) {
            error(at, condition, "missing required key 'value' for op '" + op.word() + "'");
            return null;
        }
        switch (op) {
            case IN:
            case NOT_IN:
                if (!valueNode.is(Node.Kind.ARRAY)) {
                    error(valueAt, valueNode, "op '" + op.word() + "' takes an array of values, got " + valueNode.describe());
                }
                break;
            case LT:
            case LTE:
            case GT:
            case GTE:
                if (!valueNode.is(Node.Kind.NUMBER)) {
                    error(valueAt, valueNode, "op '" + op.word() + "' takes a number, got " + valueNode.describe());
                }
                break;
            case REGEX:
                if (!valueNode.is(Node.Kind.STRING)) {
                    error(valueAt, valueNode, "op 'regex' takes a regular expression string, got " + valueNode.describe());
                } else if (valueNode.text().length() > JsonSchema.MAX_PATTERN_LENGTH) {
                    error(valueAt, valueNode, "a regular expression may be at most " + JsonSchema.MAX_PATTERN_LENGTH
                            + " characters long, got " + valueNode.text().length());
                } else {
                    try {
                        Pattern.compile(valueNode.text());
                    } catch (PatternSyntaxException e) {
                        error(valueAt, valueNode, "invalid regular expression (RE2 syntax): " + e.getDescription());
                    }
                }
                break;
            case MAX_LENGTH:
                if (!valueNode.is(Node.Kind.NUMBER) || !JsonValues.isIntegral(valueNode.number())
                        || JsonValues.compareNumbers(valueNode.number(), 0) < 0) {
                    error(valueAt, valueNode, "op 'max_length' takes a non-negative integer, got " + valueNode.describe());
                }
                break;
            case CONTAINS:
                // a null the reader already reported (a YAML alias) needs no second error
                if (valueNode.is(Node.Kind.OBJECT) || valueNode.is(Node.Kind.ARRAY)
                        || valueNode.is(Node.Kind.NULL) && !hasErrorAt(valueAt)) {
                    error(valueAt, valueNode, "op 'contains' takes a string, number or boolean, got "
                            + valueNode.describe());
                }
                break;
            default:
                break;
        }
        return valueNode.toPlain();
    }

    /** The limits of the rule at {@code ruleAt} (or of {@code /all_tools}). */
    private List<Limit> limits(Node node, String ruleAt) {
        String at = ruleAt + "/limits";
        List<Limit> limits = new ArrayList<>();
        if (node == null) {
            return limits;
        }
        if (!node.is(Node.Kind.ARRAY)) {
            error(at, node, "expected an array of limits {counter, window, max, scope, algorithm}, got " + node.describe());
            return limits;
        }
        List<Node> items = node.items();
        for (int i = 0; i < items.size(); i++) {
            Limit limit = limit(items.get(i), at + "/" + i, ruleAt);
            if (limit != null) {
                limits.add(limit);
            }
        }
        return limits;
    }

    private Limit limit(Node node, String at, String ruleAt) {
        if (!node.is(Node.Kind.OBJECT)) {
            error(at, node, "expected a limit {counter, window, max, scope, algorithm}, got " + node.describe());
            return null;
        }
        Map<String, Node> fields = node.fields();
        checkKeys(fields, at, LIMIT_KEYS);
        boolean ok = true;

        String counter = null;
        Node counterNode = fields.get("counter");
        if (counterNode != null) {
            if (counterNode.is(Node.Kind.STRING) && !counterNode.text().isEmpty()) {
                counter = counterNode.text();
            } else {
                error(at + "/counter", counterNode, "expected a counter name, got " + counterNode.describe());
                ok = false;
            }
        }
        Duration window = null;
        Node windowNode = fields.get("window");
        if (windowNode == null) {
            error(at, node, "missing required key 'window'");
        } else {
            window = duration(windowNode, at + "/window");
        }
        long max = 0;
        Node maxNode = fields.get("max");
        if (maxNode == null) {
            error(at, node, "missing required key 'max'");
        } else if (!maxNode.is(Node.Kind.NUMBER) || !JsonValues.isIntegral(maxNode.number())
                || JsonValues.compareNumbers(maxNode.number(), 1) < 0
                || JsonValues.compareNumbers(maxNode.number(), Integer.MAX_VALUE) > 0) {
            error(at + "/max", maxNode, "expected a whole number of calls from 1 to 2147483647, got " + maxNode.describe());
        } else {
            max = maxNode.number().longValue();
        }
        Scope scope = Scope.GLOBAL;
        Node scopeNode = fields.get("scope");
        if (scopeNode != null) {
            String word = word(scopeNode, at + "/scope", List.of("global", "session", "client", "grant", "user"));
            if (word == null) {
                ok = false;
            } else {
                scope = word.equals("global") ? Scope.GLOBAL : word.equals("session") ? Scope.SESSION
                        : word.equals("user") ? Scope.USER : Scope.CLIENT;
            }
        }
        Algorithm algorithm = Algorithm.SLIDING;
        Node algorithmNode = fields.get("algorithm");
        if (algorithmNode != null) {
            String word = word(algorithmNode, at + "/algorithm", List.of("sliding", "fixed", "token_bucket"));
            if (word == null) {
                ok = false;
            } else {
                algorithm = word.equals("sliding") ? Algorithm.SLIDING : word.equals("fixed") ? Algorithm.FIXED : Algorithm.TOKEN_BUCKET;
            }
        }
        if (!ok || window == null || max < 1) {
            return null;
        }
        Limit limit = counter != null ? new Limit(counter, window, max, scope, algorithm)
                : Limit.unnamed(ruleAt, window, max, scope, algorithm);
        DeclaredLimit earlier = counters.putIfAbsent(limit.counter(), new DeclaredLimit(limit, at));
        if (earlier != null && !earlier.limit().equals(limit)) {
            error(at, node, "counter '" + limit.counter() + "' is declared differently at " + earlier.pointer() + " ("
                    + describe(earlier.limit()) + " vs " + describe(limit) + "); limits sharing a counter must agree "
                    + "on window, max, scope and algorithm");
        }
        return limit;
    }

    private static String describe(Limit limit) {
        return limit.describe() + ", " + limit.algorithm().word();
    }

    private Duration duration(Node node, String at) {
        Duration parsed = null;
        if (node.is(Node.Kind.STRING)) {
            parsed = Durations.parse(node.text());
        } else if (node.is(Node.Kind.NUMBER) && JsonValues.isIntegral(node.number())
                && JsonValues.compareNumbers(node.number(), Long.MAX_VALUE) <= 0) {
            // Through the text form, so that 60 and "60" have the same bounds (a long's low bits are no window).
            // Bounded first: toBigInteger() of 1E+400000000 would write out all its digits.
            parsed = Durations.parse(new BigDecimal(node.number().toString()).toBigInteger().toString());
        }
        if (parsed == null) {
            error(at, node, "expected second|minute|hour|day, a whole number of seconds (60), or a duration like "
                    + "30s, 5m, 1h, 1d; got " + node.describe());
        }
        return parsed;
    }

    private Map<String, ServerPolicy> servers(Node node) {
        Map<String, ServerPolicy> servers = new LinkedHashMap<>();
        if (node == null) {
            return servers;
        }
        if (!node.is(Node.Kind.OBJECT)) {
            error("/servers", node, "expected an object keyed by server name (serverInfo.name), got " + node.describe());
            return servers;
        }
        for (Map.Entry<String, Node> entry : node.fields().entrySet()) {
            String at = "/servers/" + JsonPointers.escape(entry.getKey());
            Node section = entry.getValue();
            if (!section.is(Node.Kind.OBJECT)) {
                error(at, section, "expected an object with default, hide, tools, resources and prompts, got " + section.describe());
                continue;
            }
            Map<String, Node> fields = section.fields();
            checkKeys(fields, at, SERVER_KEYS);
            Action defaultAction = defaultAction(fields.get("default"), at + "/default", null);
            List<String> hide = hide(fields.get("hide"), at + "/hide");
            Map<String, ToolRule> tools = rules(fields.get("tools"), at + "/tools", Section.TOOLS);
            Map<String, ToolRule> resources = rules(fields.get("resources"), at + "/resources", Section.RESOURCES);
            Map<String, ToolRule> prompts = rules(fields.get("prompts"), at + "/prompts", Section.PROMPTS);
            Action resourceDefault = defaultAction(fields.get("resource_default"), at + "/resource_default", null);
            Action promptDefault = defaultAction(fields.get("prompt_default"), at + "/prompt_default", null);
            if (fields.containsKey("pins")) {
                // checkKeys named it unknown; say where it goes instead
                String pins = at + "/pins";
                errors.removeIf(error -> error.pointer().equals(pins));
                error(at + "/pins", fields.get("pins"), "a pins file is named at the top level only (one file holds every "
                        + "server's pins, keyed by serverInfo.name); here use pin: true or pin: false");
            }
            Pinning pinning = new Pinning(pin(fields.get("pin"), at + "/pin"), null,
                    defaultAction(fields.get("pin_new"), at + "/pin_new", null));
            servers.put(entry.getKey(), new ServerPolicy(defaultAction, hide, tools, resources, prompts, resourceDefault, promptDefault,
                    pinning));
        }
        return servers;
    }

    private Boolean pin(Node node, String at) {
        if (node == null) {
            return null;
        }
        if (!node.is(Node.Kind.BOOLEAN)) {
            error(at, node, "expected true or false, got " + node.describe());
            return null;
        }
        return node.bool();
    }

    private String pinsFile(Node node) {
        if (node == null) {
            return null;
        }
        if (!node.is(Node.Kind.STRING) || node.text().isBlank()) {
            error("/pins", node, "expected the path of a pins file (written by scan --pins), relative to the policy file, got "
                    + node.describe());
            return null;
        }
        return node.text();
    }

    private String word(Node node, String at, List<String> allowed) {
        if (node.is(Node.Kind.STRING) && allowed.contains(node.text())) {
            return node.text();
        }
        error(at, node, "expected one of " + String.join("|", allowed) + ", got " + node.describe());
        return null;
    }

    private void checkKeys(Map<String, Node> fields, String at, List<String> allowed) {
        Set<String> known = Set.copyOf(allowed);
        for (Map.Entry<String, Node> entry : fields.entrySet()) {
            if (!known.contains(entry.getKey())) {
                String suggestion = Suggestions.closest(entry.getKey(), allowed);
                error(at + "/" + JsonPointers.escape(entry.getKey()), entry.getValue(), "unknown key '" + entry.getKey() + "'"
                        + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)")
                        + "; expected one of " + String.join(", ", allowed));
            }
        }
    }

    /** The node a pointer relative to {@code base} names, or the deepest one on the way. */
    private static Node locate(Node base, String relativePointer) {
        Node node = base;
        if (relativePointer.isEmpty()) {
            return node;
        }
        for (String token : relativePointer.substring(1).split("/", -1)) {
            String key = token.replace("~1", "/").replace("~0", "~");
            Node next = null;
            if (node.is(Node.Kind.OBJECT)) {
                next = node.fields().get(key);
            } else if (node.is(Node.Kind.ARRAY) && key.chars().allMatch(Character::isDigit) && !key.isEmpty()) {
                int index = Integer.parseInt(key);
                next = index < node.items().size() ? node.items().get(index) : null;
            }
            if (next == null) {
                return node;
            }
            node = next;
        }
        return node;
    }

    private boolean hasErrorAt(String pointer) {
        return errors.stream().anyMatch(error -> error.pointer().equals(pointer));
    }

    private void error(String pointer, Node node, String message) {
        errors.add(new PolicyError(pointer, node == null ? 0 : node.line(), node == null ? 0 : node.column(), message));
    }

}
