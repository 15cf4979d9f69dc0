package dev.mcppolicy.policy.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.mcppolicy.json.JsonPointers;
import dev.mcppolicy.policy.PolicyError;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The YAML side of {@link TreeReader}: Jackson's YAML parser (SnakeYAML underneath) into {@link Node}s. In a class
 * of its own so that reading a JSON policy loads none of Jackson or SnakeYAML: only a YAML document touches it.
 * Duplicate keys (which Jackson's tree model would silently collapse) and aliases are errors, not first failures.
 */
final class YamlTreeReader {
    private static final YAMLFactory FACTORY = YAMLFactory.builder().build();

    private final List<PolicyError> errors;

    YamlTreeReader(List<PolicyError> errors) {
        this.errors = errors;
    }

    /** The document's root, or {@code null} with an error recorded when the text is not well-formed YAML. */
    Node read(String document) {
        try (JsonParser parser = FACTORY.createParser(document)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                errors.add(new PolicyError("", 1, 1, "the document is empty; expected an object"));
                return null;
            }
            Node root;
            try {
                root = readValue(parser, "", 1);
            } catch (TooDeep e) {
                return null;
            }
            if (parser.nextToken() != null) {
                JsonLocation at = parser.currentTokenLocation();
                errors.add(new PolicyError("", at.getLineNr(), at.getColumnNr(), "unexpected content after the end of the document"));
            }
            return root;
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            errors.add(new PolicyError("", at == null ? 0 : at.getLineNr(), at == null ? 0 : at.getColumnNr(),
                    "malformed YAML: " + describe(e)));
            return null;
        } catch (IOException e) {
            errors.add(new PolicyError("", 0, 0, "cannot read the document: " + e.getMessage()));
            return null;
        }
    }

    private static String describe(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : oneLine(withoutSource(message));
    }

    /** Jackson names the source in its messages ("[Source: REDACTED ...; line: 1, column: 45]"); keep only the position. */
    private static String withoutSource(String message) {
        return message.replaceAll("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]", "line $1, column $2");
    }

    /**
     * SnakeYAML explains over several lines, quoting the source under each position; the error already
     * has the position, so keep only the unindented lines that say what is wrong.
     */
    private static String oneLine(String message) {
        return message.lines()
                .filter(line -> !line.isBlank() && !Character.isWhitespace(line.charAt(0)))
                .collect(Collectors.joining("; "));
    }

    /** The value at the parser's current token; {@code depth} counts the objects and arrays that hold it, itself included. */
    private Node readValue(JsonParser parser, String pointer, int depth) throws IOException {
        JsonLocation at = parser.currentTokenLocation();
        int line = at.getLineNr();
        int column = at.getColumnNr();
        JsonToken token = parser.currentToken();
        if (token == null) {
            throw new JsonParseException(parser, "unexpected end of the document");
        }
        if ((token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) && depth > TreeReader.MAX_DEPTH) {
            errors.add(new PolicyError(pointer, line, column, "objects and arrays nest more than " + TreeReader.MAX_DEPTH
                    + " levels deep here; a policy needs far fewer"));
            throw new TooDeep();
        }
        if (parser instanceof YAMLParser && ((YAMLParser) parser).isCurrentAlias()) {
            // Jackson's streaming parser hands an alias over as its name, a plain string that a policy would misread.
            errors.add(new PolicyError(pointer, line, column,
                    "YAML aliases (*" + parser.getText() + ") are not supported; write the value out"));
            return Node.scalar(Node.Kind.NULL, null, line, column);
        }
        switch (token) {
            case START_OBJECT: {
                Map<String, Node> fields = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    JsonLocation keyAt = parser.currentTokenLocation();
                    parser.nextToken();
                    String childPointer = pointer + "/" + JsonPointers.escape(key);
                    Node child = readValue(parser, childPointer, depth + 1);
                    if (fields.containsKey(key)) {
                        errors.add(new PolicyError(childPointer, keyAt.getLineNr(), keyAt.getColumnNr(),
                                "duplicate key '" + key + "' (first at line " + fields.get(key).line() + ")"));
                    } else {
                        fields.put(key, child);
                    }
                }
                return Node.object(fields, line, column);
            }
            case START_ARRAY: {
                List<Node> items = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    items.add(readValue(parser, pointer + "/" + items.size(), depth + 1));
                }
                return Node.array(items, line, column);
            }
            case VALUE_STRING:
                return Node.scalar(Node.Kind.STRING, parser.getText(), line, column);
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return Node.scalar(Node.Kind.NUMBER, parser.getNumberValue(), line, column);
            case VALUE_TRUE:
            case VALUE_FALSE:
                return Node.scalar(Node.Kind.BOOLEAN, token == JsonToken.VALUE_TRUE, line, column);
            case VALUE_NULL:
                return Node.scalar(Node.Kind.NULL, null, line, column);
            default:
                throw new JsonParseException(parser, "unexpected token " + token);
        }
    }

    /** Stops reading at a value nested too deep; the error is already recorded. */
    private static final class TooDeep extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooDeep() {
            super(null, null, false, false);
        }
    }
}
