package dev.mcppolicy.policy.internal;

import dev.mcppolicy.policy.PolicyError;
import java.util.List;

/**
 * Reads JSON or YAML text into {@link Node}s, keeping positions and reporting duplicate keys and YAML aliases
 * as errors instead of failing on the first. JSON is read by {@link JsonTreeReader} alone, YAML by
 * {@link YamlTreeReader} (Jackson and SnakeYAML), so a JSON policy loads neither.
 *
 * <p>Objects and arrays nested more than {@value #MAX_DEPTH} levels deep are an error at the pointer of
 * the first one too deep, and reading stops there, so nothing that walks a {@code Node} tree (these
 * readers included) recurses deeper than that. Jackson alone allows 1,000 levels, more than a
 * recursive reader on top of SnakeYAML survives on a small thread stack.
 */
public final class TreeReader {
    public enum Format { JSON, YAML }

    /** The deepest nesting of objects and arrays a document may have; a policy needs far fewer. */
    public static final int MAX_DEPTH = 64;

    private final List<PolicyError> errors;

    public TreeReader(List<PolicyError> errors) {
        this.errors = errors;
    }

    /** Guesses the format of text with no telling file name: JSON documents start with '{' or '['. */
    public static Format sniff(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\uFEFF' || Character.isWhitespace(c)) {
                continue;
            }
            return c == '{' || c == '[' ? Format.JSON : Format.YAML;
        }
        return Format.JSON;
    }

    /**
     * The document's root, or {@code null} with an error recorded when the text is not well-formed. A
     * second document after the first (JSON text, or YAML after {@code ---}) is an error, never ignored.
     */
    public Node read(String text, Format format) {
        // editors on Windows still write a byte-order mark
        String document = text.startsWith("\uFEFF") ? text.substring(1) : text;
        return format == Format.YAML ? new YamlTreeReader(errors).read(document) : new JsonTreeReader(document, errors).read();
    }
}
