package dev.mcppolicy.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.mcppolicy.policy.PolicyError;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTreeReaderTest {
    private static final JsonFactory JACKSON = JsonFactory.builder().build();

    @Test
    void readsEveryKindOfValueWithWhereItStarts() {
        Node root = read("{\n  \"s\": \"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\",\r\n  \"n\": [0, -7, 2147483648, 12345678901234567890, 1.5, -2e3, 1E+2],\n"
                + "  \"b\": [true, false, null], \"o\": {}, \"a\": []\n}");

        Map<String, Node> fields = root.fields();
        assertThat(fields.get("s").text()).isEqualTo("a\"b\\c/d\b\f\n\r\té\uD83D\uDE00");
        assertThat(fields.get("s").line()).isEqualTo(2);
        assertThat(fields.get("s").column()).isEqualTo(8);
        assertThat(fields.get("n").line()).isEqualTo(3);
        assertThat(fields.get("n").items()).extracting(Node::number).containsExactly(0, -7, 2147483648L,
                new BigInteger("12345678901234567890"), 1.5, -2000.0, 100.0);
        assertThat(fields.get("n").items().get(2).column()).isEqualTo(16);
        assertThat(fields.get("b").toPlain()).isEqualTo(java.util.Arrays.asList(true, false, null));
        assertThat(fields.get("o").fields()).isEmpty();
        assertThat(fields.get("a").items()).isEmpty();
        assertThat(fields.keySet()).containsExactly("s", "n", "b", "o", "a");
    }

    @Test
    void numbersComeBackAsJacksonsDid() throws IOException {
        for (String number : new String[] {"0", "-0", "1", "-2147483648", "2147483647", "2147483648", "-2147483649",
                "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
                "123456789012345678", "1234567890123456789", "0.1", "1e400", "-1e-400", "3.0", "1E2"}) {
            Object ours = read("[" + number + "]").items().get(0).number();
            Object theirs = ((List<?>) jackson("[" + number + "]")).get(0);
            assertThat(ours).as(number).isEqualTo(theirs);
            assertThat(ours.getClass()).as(number).isEqualTo(theirs.getClass());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"a\": 1,}                 | 1 | 9  | unexpected character '}': expected a key in double quotes",
        "[1, 2,]                     | 1 | 7  | unexpected character ']': expected a value (an object, array, string, number, true, false or null)",
        "{\"a\" 1}                   | 1 | 6  | unexpected character '1': expected ':' after a key",
        "{\"a\": 1 \"b\": 2}         | 1 | 9  | unexpected character '\"': expected ',' or '}' after a value in an object",
        "[1 2]                       | 1 | 4  | unexpected character '2': expected ',' or ']' after a value in an array",
        "[01]                        | 1 | 2  | a number with a leading zero: write it without (JSON has no octal numbers)",
        "[-]                         | 1 | 3  | expected a digit after '-' in a number",
        "[1.]                        | 1 | 4  | expected a digit after the decimal point in a number",
        "[1e]                        | 1 | 4  | expected a digit in the exponent of a number",
        "[tru]                       | 1 | 2  | unexpected character 't': expected a value (an object, array, string, number, true, false or null)",
        "[NaN]                       | 1 | 2  | unexpected character 'N': expected a value (an object, array, string, number, true, false or null)",
        "['a']                       | 1 | 2  | unexpected character ''': expected a value (an object, array, string, number, true, false or null)",
        "[\"a\\x\"]                  | 1 | 5  | unknown escape \\x in a string: use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t, or \\u and four hex digits",
        "[\"\\u12G4\"]               | 1 | 7  | expected four hexadecimal digits after \\u in a string",
        "[\"abc                      | 1 | 6  | unexpected end of the document in the string that starts at line 1, column 2",
        "[1,                         | 1 | 4  | unexpected end of the document: expected ']' to close the array that starts at line 1, column 1",
    })
    void reportsWhatIsWrongAndWhere(String text, int line, int column, String message) {
        List<PolicyError> errors = new ArrayList<>();
        assertThat(new JsonTreeReader(text.strip(), errors).read()).isNull();
        assertThat(errors).singleElement().satisfies(error -> {
            assertThat(error.message()).isEqualTo("malformed JSON: " + message);
            assertThat(error.line()).isEqualTo(line);
            assertThat(error.column()).isEqualTo(column);
        });
        assertThat(jacksonRejects(text.strip())).as("Jackson rejects it too").isTrue();
    }

    @Test
    void refusesARawControlCharacterInAString() {
        List<PolicyError> errors = new ArrayList<>();
        new JsonTreeReader("{\"a\":\n \"x\ty\"}", errors).read();
        assertThat(errors).extracting(PolicyError::line, PolicyError::column, PolicyError::message).containsExactly(
                org.assertj.core.api.Assertions.tuple(2, 4, "malformed JSON: a control character (U+0009) in a string: write it escaped (\\n, \\t, \\u0009)"));
    }

    @Test
    void refusesANumberLongerThanJacksonsLimit() {
        String longest = "1".repeat(JsonTreeReader.MAX_NUMBER_LENGTH);
        assertThat(read("[" + longest + "]").items().get(0).number()).isEqualTo(new BigInteger(longest));
        List<PolicyError> errors = new ArrayList<>();
        new JsonTreeReader("[" + longest + "1]", errors).read();
        assertThat(errors).extracting(PolicyError::message).containsExactly("malformed JSON: a number longer than 1000 characters");
    }

    @Test
    void recordsEveryDuplicateKeyAndKeepsTheFirst() {
        List<PolicyError> errors = new ArrayList<>();
        Node root = new JsonTreeReader("{\"a\": 1,\n \"a\": 2, \"b\": {\"c\": 1, \"c\": 3}}", errors).read();
        assertThat(root.fields().get("a").number()).isEqualTo(1);
        assertThat(errors).extracting(PolicyError::pointer, PolicyError::line, PolicyError::column, PolicyError::message).containsExactly(
                org.assertj.core.api.Assertions.tuple("/a", 2, 2, "duplicate key 'a' (first at line 1)"),
                org.assertj.core.api.Assertions.tuple("/b/c", 2, 24, "duplicate key 'c' (first at line 2)"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"text\"", "42", "true", "null", "[]"})
    void readsAnyRootValue(String text) throws IOException {
        assertThat(read(text).toPlain()).isEqualTo(jackson(text));
    }

    /** Documents made at random, each written compactly and spread over lines: read as Jackson reads them. */
    @Test
    void readsRandomDocumentsAsJacksonDoes() throws IOException {
        Random random = new Random(16);
        for (int i = 0; i < 2_000; i++) {
            StringBuilder text = new StringBuilder();
            write(random, 0, text);
            String document = text.toString();
            assertThat(read(document).toPlain()).as(document).isEqualTo(jackson(document));
        }
    }

    private static void write(Random random, int depth, StringBuilder out) {
        int kind = depth > 4 ? 2 + random.nextInt(5) : random.nextInt(7);
        String gap = random.nextBoolean() ? "" : random.nextBoolean() ? " " : "\n\t ";
        switch (kind) {
            case 0: {
                out.append('{').append(gap);
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    out.append(i == 0 ? "" : "," + gap).append('"').append("k").append(i).append(escapes(random)).append("\"").append(gap)
                            .append(':').append(gap);
                    write(random, depth + 1, out);
                }
                out.append(gap).append('}');
                break;
            }
            case 1: {
                out.append('[').append(gap);
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    out.append(i == 0 ? "" : "," + gap);
                    write(random, depth + 1, out);
                }
                out.append(gap).append(']');
                break;
            }
            case 2:
                out.append('"').append(escapes(random)).append('"');
                break;
            case 3:
                out.append(random.nextBoolean() ? random.nextInt() : random.nextLong());
                break;
            case 4:
                out.append(random.nextBoolean() ? String.valueOf(random.nextDouble() * 1e6) : "-" + random.nextInt(100) + "e" + random.nextInt(20));
                break;
            case 5:
                out.append(random.nextBoolean() ? "true" : "false");
                break;
            default:
                out.append("null");
        }
    }

    private static String escapes(Random random) {
        String[] pieces = {"a", "é", "\\n", "\\\"", "\\\\", "\\u0041", "\\ud83d\\ude00", "/", "\\/", " ", "日本"};
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(4); i > 0; i--) {
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        return text.toString();
    }

    private static Node read(String text) {
        List<PolicyError> errors = new ArrayList<>();
        Node root = new JsonTreeReader(text, errors).read();
        if (!errors.isEmpty()) {
            fail("errors reading " + text + ": " + errors);
        }
        return root;
    }

    private static boolean jacksonRejects(String text) {
        try {
            jackson(text);
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static Object jackson(String text) throws IOException {
        try (JsonParser parser = JACKSON.createParser(text)) {
            parser.nextToken();
            Object value = plain(parser);
            if (parser.nextToken() != null) {
                throw new IOException("content after the document");
            }
            return value;
        }
    }

    private static Object plain(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == null) {
            throw new IOException("end of input");
        }
        switch (token) {
            case START_OBJECT: {
                Map<String, Object> fields = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    parser.nextToken();
                    fields.putIfAbsent(key, plain(parser));
                }
                return fields;
            }
            case START_ARRAY: {
                List<Object> items = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    items.add(plain(parser));
                }
                return items;
            }
            case VALUE_STRING:
                return parser.getText();
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return parser.getNumberValue();
            case VALUE_TRUE:
                return true;
            case VALUE_FALSE:
                return false;
            case VALUE_NULL:
                return null;
            default:
                throw new IOException("unexpected token " + token);
        }
    }
}
