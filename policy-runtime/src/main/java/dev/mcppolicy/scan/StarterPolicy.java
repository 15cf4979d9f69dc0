package dev.mcppolicy.scan;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import dev.mcppolicy.policy.Glob;
import dev.mcppolicy.policy.ToolRisk;
import dev.mcppolicy.text.DisplayText;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The starter policy {@code scan} writes for a server's tools (SPEC §9): {@code default: deny}, and one
 * rule per tool that its risk category warrants, each with a {@code reason} saying why it was chosen.
 * READ is allowed; WRITE is allowed {@value #WRITE_PER_MINUTE} calls a minute per client; EXECUTE is
 * allowed {@value #EXECUTE_PER_MINUTE} a minute per client with {@code "arguments": "input_schema"};
 * DESTRUCTIVE and FINANCIAL need a human's approval ({@value #APPROVAL_TIMEOUT}, then denied; SPEC §6: an
 * agent without an admin endpoint has no one to ask and denies them at once). A tool whose
 * name cannot be a policy key as it is (a glob character, a control character) gets no rule, so
 * {@code default: deny} covers it, and is listed in {@link #skipped()}.
 */
public final class StarterPolicy {
    static final int WRITE_PER_MINUTE = 60;
    static final int EXECUTE_PER_MINUTE = 10;
    static final String APPROVAL_TIMEOUT = "5m";
    /** Plain YAML scalars that read as strings: a letter or underscore, then letters, digits, {@code _ - .}. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");
    /** Words YAML 1.1 reads as booleans or null. */
    private static final Set<String> YAML_WORDS = Set.of("y", "n", "yes", "no", "on", "off", "true", "false", "null");

    private final List<RiskCategorizer.Categorized> categorized;
    private final List<String> skipped;
    private final Map<String, Object> model;

    private StarterPolicy(List<RiskCategorizer.Categorized> categorized, List<String> skipped) {
        this.categorized = List.copyOf(categorized);
        this.skipped = List.copyOf(skipped);
        Map<String, Object> tools = new LinkedHashMap<>();
        for (RiskCategorizer.Categorized tool : categorized) {
            tools.put(tool.tool().name(), rule(tool));
        }
        Map<String, Object> policy = new LinkedHashMap<>();
        policy.put("version", "1");
        policy.put("default", "deny");
        policy.put("mode", "enforce");
        policy.put("tools", tools);
        this.model = policy;
    }

    /** The policy for {@code tools}, in their order; a name listed twice keeps its first description. */
    public static StarterPolicy of(List<ScannedTool> tools) {
        List<RiskCategorizer.Categorized> categorized = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (ScannedTool tool : tools) {
            String name = tool.name();
            if (name == null || name.isEmpty()) {
                skipped.add("a tool without a name");
            } else if (!seen.add(name)) {
                skipped.add(quoted(name) + ": listed twice; the first listing is used");
            } else if (Glob.isGlob(name)) {
                seen.add(name);
                skipped.add(quoted(name) + ": its name has '*' or '?', which a policy key reads as a glob; default deny applies");
            } else if (name.codePoints().anyMatch(DisplayText::isUnsafe)) {
                skipped.add(quoted(name) + ": its name has a control or invisible character; default deny applies");
            } else {
                categorized.add(RiskCategorizer.categorize(tool));
            }
        }
        return new StarterPolicy(categorized, skipped);
    }

    /** The tools that got a rule, with their categories, in listing order. */
    public List<RiskCategorizer.Categorized> categorized() {
        return categorized;
    }

    /** One line for each tool that got no rule (default deny covers it), saying why. */
    public List<String> skipped() {
        return skipped;
    }

    /** The policy as a JSON document. */
    public String json() {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(text)) {
            DefaultPrettyPrinter pretty = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                    .withObjectIndenter(new DefaultIndenter("  ", "\n"));
            pretty.indentArraysWith(new DefaultIndenter("  ", "\n"));
            json.setPrettyPrinter(pretty);
            writeJson(model, json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text + "\n";
    }

    /** The policy as YAML, opened by {@code header} (each line becomes a comment) and each tool's category as a comment. */
    public String yaml(List<String> header) {
        StringBuilder yaml = new StringBuilder();
        for (String line : header) {
            yaml.append("# ").append(line).append('\n');
        }
        for (Map.Entry<String, Object> top : model.entrySet()) {
            if (!top.getKey().equals("tools")) {
                yaml.append(top.getKey()).append(": ").append(yamlScalar((String) top.getValue())).append('\n');
            }
        }
        yaml.append("tools:");
        if (categorized.isEmpty()) {
            return yaml.append(" {}\n").toString();
        }
        yaml.append('\n');
        for (RiskCategorizer.Categorized tool : categorized) {
            yaml.append("  # ").append(tool.risk().name().toLowerCase(Locale.ROOT)).append('\n');
            yaml.append("  ").append(yamlScalar(tool.tool().name())).append(":\n");
            writeYaml(rule(tool), 4, yaml);
        }
        return yaml.toString();
    }

    private static Map<String, Object> rule(RiskCategorizer.Categorized tool) {
        Map<String, Object> rule = new LinkedHashMap<>();
        String name = tool.tool().name();
        String category = tool.risk().name().toLowerCase(Locale.ROOT);
        String reason;
        switch (tool.risk()) {
            case READ:
                reason = "allowed";
                break;
            case WRITE:
                rule.put("limits", List.of(limit(name, WRITE_PER_MINUTE)));
                reason = "allowed, at most " + WRITE_PER_MINUTE + " calls a minute per client";
                break;
            case EXECUTE:
                rule.put("arguments", "input_schema");
                rule.put("limits", List.of(limit(name, EXECUTE_PER_MINUTE)));
                reason = "allowed when the arguments match the tool's inputSchema, at most " + EXECUTE_PER_MINUTE
                        + " calls a minute per client"
                        + (tool.tool().schemaNamesArguments() ? "; add a \"require\" allow-list of what may run"
                                : "; its schema names no argument, so that checks little: add a \"require\" allow-list of what may run");
                break;
            default:
                rule.put("action", "require_approval");
                rule.put("approval", Map.of("timeout", APPROVAL_TIMEOUT));
                reason = "each call waits for a human's approval on the admin endpoint, denied after " + APPROVAL_TIMEOUT
                        + " (at once when the agent has no admin endpoint)";
                break;
        }
        rule.put("reason", category + ": " + tool.evidence() + "; " + reason);
        return rule;
    }

    private static Map<String, Object> limit(String counter, int perMinute) {
        Map<String, Object> limit = new LinkedHashMap<>();
        limit.put("counter", counter);
        limit.put("window", "minute");
        limit.put("max", perMinute);
        limit.put("scope", "client");
        return limit;
    }

    private static void writeJson(Object value, JsonGenerator json) throws IOException {
        if (value instanceof Map<?, ?> map) {
            json.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                json.writeFieldName((String) entry.getKey());
                writeJson(entry.getValue(), json);
            }
            json.writeEndObject();
        } else if (value instanceof List<?> list) {
            json.writeStartArray();
            for (Object item : list) {
                writeJson(item, json);
            }
            json.writeEndArray();
        } else if (value instanceof Integer number) {
            json.writeNumber(number);
        } else {
            json.writeString((String) value);
        }
    }

    /** Block-style YAML; a string that is not a plain word (see {@link #yamlScalar}) is double-quoted, so no name can be read as YAML syntax. */
    private static void writeYaml(Map<?, ?> map, int indent, StringBuilder yaml) {
        boolean first = true;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            // the first key of a list item goes on the item's "- " line, already indented
            yaml.append(first && indent < 0 ? "" : " ".repeat(Math.abs(indent))).append(yamlScalar((String) entry.getKey())).append(':');
            first = false;
            Object value = entry.getValue();
            int inner = Math.abs(indent) + 2;
            if (value instanceof Map<?, ?> nested) {
                yaml.append('\n');
                writeYaml(nested, inner, yaml);
            } else if (value instanceof List<?> list) {
                yaml.append('\n');
                for (Object item : list) {
                    yaml.append(" ".repeat(inner)).append("- ");
                    writeYaml((Map<?, ?>) item, -(inner + 2), yaml);
                }
            } else {
                yaml.append(' ').append(value instanceof Integer ? value.toString() : yamlScalar((String) value)).append('\n');
            }
        }
    }

    /** {@code text} as it is when a word no YAML reader takes for anything else ({@code deny}, {@code run_command}), else double-quoted. */
    static String yamlScalar(String text) {
        return PLAIN.matcher(text).matches() && !YAML_WORDS.contains(text.toLowerCase(Locale.ROOT)) ? text : yamlString(text);
    }

    /** A YAML double-quoted scalar: the quote, the backslash and all but printable ASCII escaped, by code point. */
    static String yamlString(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        text.codePoints().forEach(c -> {
            if (c == '"' || c == '\\') {
                quoted.append('\\').appendCodePoint(c);
            } else if (c >= 0x20 && c <= 0x7e) {
                quoted.appendCodePoint(c);
            } else if (c <= 0xffff) {
                quoted.append(String.format(Locale.ROOT, "\\u%04x", c));
            } else {
                quoted.append(String.format(Locale.ROOT, "\\U%08x", c));
            }
        });
        return quoted.append('"').toString();
    }

    private static String quoted(String name) {
        StringBuilder text = new StringBuilder("'");
        DisplayText.appendQuoted(name, '\'', 256, text);
        return text.append('\'').toString();
    }
}
