package dev.mcppolicy.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.engine.Caller;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.json.CanonicalJson;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DecisionRecordTest {
    private static final Instant AT = Instant.parse("2026-11-29T12:00:00Z");
    private static final Map<String, Object> ARGS = Map.of("command", "rm -rf /", "cwd", "/tmp");
    private static final String ARGS_SHA = CanonicalJson.sha256(Map.of("cwd", "/tmp", "command", "rm -rf /"));

    private static final ToolCall CALL = new ToolCall(Side.SERVER, null, "run_command", ARGS, "sess-1", "claude-code", null);
    private static final Decision DENIED = new Decision(Effect.DENY, Effect.DENY, "/tools/run_command/deny_if/0",
            "run_command is limited to read-only commands", 0, "args.command");

    @Test
    void writesTheSpecLogLine() {
        assertThat(new DecisionRecord(AT, CALL, DENIED, 3, false).toLine()).isEqualTo(
                "mcp-policy decision=DENY tool=run_command side=server rule=/tools/run_command/deny_if/0 arg=args.command"
                        + " reason=\"run_command is limited to read-only commands\" session=sess-1 client=claude-code"
                        + " arg_keys=command,cwd args_sha256=" + ARGS_SHA + " took_us=3");
    }

    @Test
    void aVerifiedCallerIsTheUserFieldOrItsHashAndAnUnverifiedOneAddsNothing() {
        ToolCall byAlice = CALL.withCaller(Caller.verified("alice@example.com", "Alice", List.of("ops"), Map.of()));
        assertThat(new DecisionRecord(AT, byAlice, DENIED, 3, false).toLine())
                .contains(" client=claude-code user=alice@example.com arg_keys=command,cwd ");
        assertThat(new DecisionRecord(AT, byAlice, DENIED, 3, false).toJson()).contains("\"client\":\"claude-code\",\"user\":\"alice@example.com\",");
        String hashed = "sha256:" + CanonicalJson.sha256Hex("alice@example.com".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        DecisionRecord hidden = new DecisionRecord(AT, byAlice, DENIED, 3, false, null, null, true);
        assertThat(hidden.toLine()).contains(" user=" + hashed + " ").doesNotContain("alice");
        assertThat(hidden.toJson()).contains("\"user\":\"" + hashed + "\"").doesNotContain("alice");
        assertThat(new DecisionRecord(AT, CALL, DENIED, 3, false).toLine()).doesNotContain("user=");
        assertThat(new DecisionRecord(AT, CALL, DENIED, 3, false).toJson()).doesNotContain("\"user\"");
    }

    @Test
    void neverWritesArgumentValuesUnlessAskedTo() {
        DecisionRecord record = new DecisionRecord(AT, CALL, DENIED, 3, false);
        assertThat(record.toLine()).doesNotContain("rm -rf").doesNotContain("/tmp");
        assertThat(record.toJson()).doesNotContain("rm -rf").doesNotContain("/tmp");

        DecisionRecord verbose = new DecisionRecord(AT, CALL, DENIED, 3, true);
        assertThat(verbose.toLine()).contains(" args=\"{\\\"command\\\":\\\"rm -rf /\\\",\\\"cwd\\\":\\\"/tmp\\\"}\" took_us=3");
    }

    @Test
    void showsMonitorRateLimitAndClientSideFields() {
        ToolCall clientCall = new ToolCall(Side.CLIENT, "github", "create issue", Map.of(), null, null, null);
        Decision monitored = new Decision(Effect.ALLOW, Effect.DENY, "/tools/x/limits/0", "rate limit exceeded", 12);
        assertThat(new DecisionRecord(AT, clientCall, monitored, 41, false).toLine()).isEqualTo(
                "mcp-policy decision=ALLOW would=DENY tool=\"create issue\" side=client server=github rule=/tools/x/limits/0"
                        + " reason=\"rate limit exceeded\" retry_after=12 session=- client=- arg_keys=\"\" args_sha256="
                        + CanonicalJson.sha256(Map.of()) + " took_us=41");
    }

    @Test
    void aHeldCallIsAHoldLineAndItsOutcomeNamesTheApprovalTheApproverAndTheWait() {
        Decision held = new Decision(Effect.REQUIRE_APPROVAL, Effect.REQUIRE_APPROVAL, "/tools/run_command", null, 0);
        assertThat(new DecisionRecord(AT, CALL, held, 3, false, ApprovalNote.held("a1b2c3")).toLine()).isEqualTo(
                "mcp-policy decision=HOLD tool=run_command side=server rule=/tools/run_command approval_id=a1b2c3 session=sess-1"
                        + " client=claude-code arg_keys=command,cwd args_sha256=" + ARGS_SHA + " took_us=3");
        Decision approved = new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/run_command", null, 0);
        DecisionRecord outcome = new DecisionRecord(AT, CALL, approved, 3, false, new ApprovalNote("a1b2c3", "approved", "alice", 1500));
        assertThat(outcome.toLine()).contains("decision=ALLOW tool=run_command side=server rule=/tools/run_command"
                + " approval_id=a1b2c3 approval=approved approver=alice waited_ms=1500 session=sess-1");
        assertThat(outcome.toJson()).contains("\"approval_id\":\"a1b2c3\",\"approval\":\"approved\",\"approver\":\"alice\","
                + "\"waited_ms\":1500,");
        Decision timedOut = new Decision(Effect.DENY, Effect.DENY, "/tools/run_command", "approval timed out after 5m", 0);
        assertThat(new DecisionRecord(AT, CALL, timedOut, 3, false, new ApprovalNote("a1b2c3", "timed_out", null, 300000)).toLine())
                .contains("decision=DENY tool=run_command side=server rule=/tools/run_command reason=\"approval timed out after 5m\""
                        + " approval_id=a1b2c3 approval=timed_out waited_ms=300000 session=");
    }

    @Test
    void aCallPutToItsClientsUserNamesTheChannelOnTheHoldAndTheOutcome() {
        Decision held = new Decision(Effect.REQUIRE_APPROVAL, Effect.REQUIRE_APPROVAL, "/tools/run_command", null, 0);
        assertThat(new DecisionRecord(AT, CALL, held, 3, false, ApprovalNote.held("a1b2c3", "elicitation")).toLine())
                .contains("decision=HOLD tool=run_command side=server rule=/tools/run_command approval_id=a1b2c3"
                        + " approval_via=elicitation session=sess-1");
        Decision approved = new Decision(Effect.ALLOW, Effect.ALLOW, "/tools/run_command", null, 0);
        DecisionRecord outcome = new DecisionRecord(AT, CALL, approved, 3, false,
                new ApprovalNote("a1b2c3", "approved", "claude-code", 1500, "elicitation"));
        assertThat(outcome.toLine()).contains(" approval_id=a1b2c3 approval=approved approver=claude-code waited_ms=1500"
                + " approval_via=elicitation session=sess-1");
        assertThat(outcome.toJson()).contains("\"waited_ms\":1500,\"approval_via\":\"elicitation\",");
        assertThat(new DecisionRecord(AT, CALL, approved, 3, false, new ApprovalNote("a1b2c3", "approved", "alice", 1500)).toJson())
                .doesNotContain("approval_via");
    }

    @Test
    void aValueTheThreadWroteBareBeforeDoesNotExcuseAnotherFromQuotes() {
        String session = "sess-1";
        ToolCall plain = new ToolCall(Side.SERVER, null, "run_command", ARGS, session, "claude-code", null);
        ToolCall spaced = new ToolCall(Side.SERVER, null, "run_command", ARGS, "sess 1", "claude code", null);

        String first = new DecisionRecord(AT, plain, DENIED, 3, false).toLine();
        String between = new DecisionRecord(AT, spaced, DENIED, 3, false).toLine();
        String again = new DecisionRecord(AT, plain, DENIED, 3, false).toLine();

        assertThat(first).contains(" session=sess-1 client=claude-code ").isEqualTo(again);
        assertThat(between).contains(" session=\"sess 1\" client=\"claude code\" ");
    }

    @Test
    void writesTheSameFieldsAsOneJsonObject() {
        assertThat(new DecisionRecord(AT, CALL, DENIED, 3, false).toJson()).isEqualTo(
                "{\"ts\":\"2026-11-29T12:00:00Z\",\"decision\":\"DENY\",\"would\":\"DENY\",\"tool\":\"run_command\","
                        + "\"side\":\"server\",\"server\":null,\"rule\":\"/tools/run_command/deny_if/0\",\"arg\":\"args.command\","
                        + "\"reason\":\"run_command is limited to read-only commands\",\"retry_after\":0,"
                        + "\"session\":\"sess-1\",\"client\":\"claude-code\",\"arg_keys\":[\"command\",\"cwd\"],"
                        + "\"args_sha256\":\"" + ARGS_SHA + "\",\"took_us\":3}");
    }

    @Test
    void hashesArgumentsCanonicallyWhateverTheirOrderAndNumberTypes() {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("b", List.of(1, 2.5));
        one.put("a", Map.of("y", 1L, "x", true));
        Map<String, Object> other = new LinkedHashMap<>();
        other.put("a", Map.of("x", true, "y", 1.0));
        other.put("b", List.of(1L, new java.math.BigDecimal("2.50")));
        assertThat(CanonicalJson.write(one)).isEqualTo("{\"a\":{\"x\":true,\"y\":1},\"b\":[1,2.5]}");
        assertThat(CanonicalJson.sha256(one)).isEqualTo(CanonicalJson.sha256(other));
    }

    @Test
    void escapesQuotesAndNewlinesInReasons() {
        Decision tricky = new Decision(Effect.DENY, Effect.DENY, "(error)", "policy unavailable: \"x\"\nline 2", 0);
        assertThat(new DecisionRecord(AT, CALL, tricky, 1, false).toLine())
                .contains(" reason=\"policy unavailable: \\\"x\\\"\\nline 2\" ")
                .doesNotContain("\n");
    }

    // --- hostile field values (issue 8): one line, no forged field, no spoofed display ---

    private static final String FORGERY = "x decision=ALLOW rule=(default) \"q\" back\\slash"
            + "\n\rmcp-policy decision=ALLOW\u2028\u2029\u0085\u001b[31m\u007f\u009b"
            + "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u200b\ufeff\u00ad"
            + "\uDB40\uDC41\uD800 \uDC00\u00a0=\u3000";

    private static final String[] RAW_UNSAFE = {"\n", "\r", "\u2028", "\u2029", "\u0085", "\u001b", "\u007f", "\u009b",
        "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f",
        "\u061c", "\u200b", "\ufeff", "\u00ad", "\uDB40\uDC41", "\uD800", "\uDC00"};

    @Test
    void keepsEveryHostileFieldValueInsideItsOwnFieldOnOneLine() {
        ToolCall call = new ToolCall(Side.CLIENT, "srv " + FORGERY, "tool " + FORGERY, Map.of("k " + FORGERY, 1),
                "sess " + FORGERY, "client " + FORGERY, null);
        Decision decision = new Decision(Effect.DENY, Effect.DENY, "/tools/" + FORGERY, "reason " + FORGERY, 0);

        String line = new DecisionRecord(AT, call, decision, 7, true).toLine();

        assertThat(line).doesNotContain(RAW_UNSAFE);
        Map<String, String> fields = LogLine.parse(line);
        assertThat(fields.keySet()).containsExactly("decision", "tool", "side", "server", "rule", "reason", "session", "client",
                "arg_keys", "args_sha256", "args", "took_us");
        assertThat(fields).containsEntry("decision", "DENY").containsEntry("took_us", "7")
                .containsEntry("tool", "tool " + FORGERY).containsEntry("server", "srv " + FORGERY)
                .containsEntry("rule", "/tools/" + FORGERY).containsEntry("reason", "reason " + FORGERY)
                .containsEntry("session", "sess " + FORGERY).containsEntry("client", "client " + FORGERY)
                .containsEntry("arg_keys", "k " + FORGERY).containsEntry("args", CanonicalJson.write(call.arguments()));
    }

    @Test
    void quotesValuesWithUnicodeSpacesOrUnsafeCharactersAndLeavesPlainOnesBare() {
        for (String value : List.of("a\u00a0b", "a\u3000b", "a\u2003b", "a\u202eb", "a\u200bb", "a\uD800", "", "a=b", "a\"b", "a\\b")) {
            ToolCall call = new ToolCall(Side.SERVER, null, value, Map.of(), null, null, null);
            String line = new DecisionRecord(AT, call, DENIED, 1, false).toLine();
            assertThat(line).as(CanonicalJson.write(value)).contains(" tool=\"");
            assertThat(LogLine.parse(line)).containsEntry("tool", value);
        }
        ToolCall plain = new ToolCall(Side.SERVER, null, "caf\u00e9_\uD83D\uDE00-\u4e2d", Map.of(), null, null, null);
        assertThat(new DecisionRecord(AT, plain, DENIED, 1, false).toLine()).contains(" tool=caf\u00e9_\uD83D\uDE00-\u4e2d side=");
    }

    @Test
    void capsLongFieldValuesInTheLineAndSaysHowMuchWasCut() {
        String tool = "a".repeat(10_240);
        ToolCall call = new ToolCall(Side.SERVER, null, tool, Map.of("k".repeat(300), "v".repeat(10_000)), "s".repeat(257),
                "c".repeat(256), null);
        Decision decision = new Decision(Effect.DENY, Effect.DENY, "/tools/" + tool, "r".repeat(2_000), 0);

        DecisionRecord record = new DecisionRecord(AT, call, decision, 1, true);
        String line = record.toLine();

        Map<String, String> fields = LogLine.parse(line);
        assertThat(fields).containsEntry("tool", "a".repeat(256) + "\u2026(+9984 chars)")
                .containsEntry("rule", "/tools/" + "a".repeat(249) + "\u2026(+9991 chars)")
                .containsEntry("reason", "r".repeat(1024) + "\u2026(+976 chars)")
                .containsEntry("session", "s".repeat(256) + "\u2026(+1 chars)")
                .containsEntry("client", "c".repeat(256))
                .containsEntry("arg_keys", "k".repeat(256) + "\u2026(+44 chars)");
        assertThat(fields.get("args")).startsWith("{\"" + "k".repeat(300) + "\":\"vvv").endsWith("\u2026(+6211 chars)")
                .hasSize(4096 + "\u2026(+6211 chars)".length());
        assertThat(line).contains(" tool=\"" + "a".repeat(256) + "\u2026(+9984 chars)\" side=server ");
        assertThat(line).hasSizeLessThan(7_000);
        assertThat(record.toJson()).as("the audit record keeps values in full").contains("\"tool\":\"" + tool + "\"")
                .contains("v".repeat(10_000));
    }

    @Test
    void theBoundedJsonCutsEachValueAsTheLineDoesAndStaysValidJson() {
        Map<String, Object> arguments = new LinkedHashMap<>();
        for (int i = 0; i < 100_000; i++) {
            arguments.put("key" + i, "v");
        }
        arguments.put("big", "v".repeat(10_000_000));
        String tool = "a".repeat(10_240);
        ToolCall call = new ToolCall(Side.SERVER, null, tool, arguments, "s".repeat(257), "c".repeat(256), null);
        Decision decision = new Decision(Effect.DENY, Effect.DENY, "/tools/" + tool, "r".repeat(2_000), 0);

        String json = new DecisionRecord(AT, call, decision, 1, true).toBoundedJson();

        assertThat(json).hasSizeLessThan(8_000);
        Map<String, Object> fields = AuditJson.parse(json);
        assertThat(fields).containsEntry("tool", "a".repeat(256) + "\u2026(+9984 chars)")
                .containsEntry("reason", "r".repeat(1024) + "\u2026(+976 chars)")
                .containsEntry("session", "s".repeat(256) + "\u2026(+1 chars)")
                .containsEntry("args_sha256", CanonicalJson.sha256(arguments));
        @SuppressWarnings("unchecked")
        List<String> keys = (List<String>) fields.get("arg_keys");
        assertThat(keys.get(keys.size() - 1)).matches("\u2026\\(\\+\\d+ keys\\)");
        assertThat(String.join("", keys.subList(0, keys.size() - 1))).hasSizeLessThanOrEqualTo(256);
        String args = CanonicalJson.write(arguments);
        assertThat((String) fields.get("args")).as("the arguments' JSON, cut, as a string")
                .isEqualTo(args.substring(0, 4096) + "\u2026(+" + (args.length() - 4096) + " chars)");
        assertThat(new DecisionRecord(AT, CALL, DENIED, 3, true).toBoundedJson()).as("a small record is the audit record")
                .isEqualTo(new DecisionRecord(AT, CALL, DENIED, 3, true).toJson());
    }

    @Test
    void writesTheAuditRecordAsValidJsonOnOneLineWithUnsafeCharactersEscaped() {
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("k " + FORGERY, List.of("v " + FORGERY, Double.NaN, Double.POSITIVE_INFINITY));
        ToolCall call = new ToolCall(Side.CLIENT, "srv " + FORGERY, "tool " + FORGERY, arguments, "sess " + FORGERY,
                null, null);
        Decision decision = new Decision(Effect.DENY, Effect.DENY, "/tools/" + FORGERY, "reason " + FORGERY, 0);

        String json = new DecisionRecord(AT, call, decision, 7, true).toJson();

        assertThat(json).doesNotContain(RAW_UNSAFE);
        Map<String, Object> fields = AuditJson.parse(json);
        assertThat(fields).containsEntry("tool", "tool " + FORGERY).containsEntry("server", "srv " + FORGERY)
                .containsEntry("rule", "/tools/" + FORGERY).containsEntry("reason", "reason " + FORGERY)
                .containsEntry("session", "sess " + FORGERY).containsEntry("client", null)
                .containsEntry("arg_keys", List.of("k " + FORGERY))
                .containsEntry("args", Map.of("k " + FORGERY, List.of("v " + FORGERY, "NaN", "Infinity")));
    }

    /** Reads a decision log line strictly: {@code mcp-policy} then {@code name=bare} or {@code name="json string"} fields. */
    private static final class LogLine {
        static Map<String, String> parse(String line) {
            assertThat(line).startsWith("mcp-policy ");
            Map<String, String> fields = new LinkedHashMap<>();
            int at = "mcp-policy ".length();
            while (at < line.length()) {
                int equals = line.indexOf('=', at);
                String name = line.substring(at, equals);
                assertThat(name).matches("[a-z_0-9]+");
                assertThat(fields).as("field %s only once", name).doesNotContainKey(name);
                int end;
                String value;
                if (line.charAt(equals + 1) == '"') {
                    end = closingQuote(line, equals + 2);
                    value = unescape(line.substring(equals + 2, end));
                    end++;
                } else {
                    end = line.indexOf(' ', equals);
                    end = end < 0 ? line.length() : end;
                    value = line.substring(equals + 1, end);
                }
                fields.put(name, value);
                assertThat(end == line.length() || line.charAt(end) == ' ').as("a space after %s", name).isTrue();
                at = end + 1;
            }
            fields.remove("would");
            return fields;
        }

        private static int closingQuote(String line, int from) {
            for (int i = from; i < line.length(); i++) {
                if (line.charAt(i) == '\\') {
                    i++;
                } else if (line.charAt(i) == '"') {
                    return i;
                }
            }
            throw new AssertionError("unterminated quoted value in " + line);
        }

        private static String unescape(String body) {
            try (com.fasterxml.jackson.core.JsonParser parser = new com.fasterxml.jackson.core.JsonFactory().createParser("\"" + body + "\"")) {
                parser.nextToken();
                return parser.getText();
            } catch (java.io.IOException e) {
                throw new AssertionError("not a JSON string body: " + body, e);
            }
        }
    }

    /** Reads an audit record back into plain values with Jackson. */
    private static final class AuditJson {
        static Map<String, Object> parse(String json) {
            try (com.fasterxml.jackson.core.JsonParser parser = new com.fasterxml.jackson.core.JsonFactory().createParser(json)) {
                parser.nextToken();
                Object value = read(parser);
                assertThat(parser.nextToken()).isNull();
                @SuppressWarnings("unchecked")
                Map<String, Object> map = (Map<String, Object>) value;
                return map;
            } catch (java.io.IOException e) {
                throw new AssertionError("not valid JSON: " + e.getMessage() + " in " + json, e);
            }
        }

        private static Object read(com.fasterxml.jackson.core.JsonParser parser) throws java.io.IOException {
            switch (parser.currentToken()) {
                case START_OBJECT: {
                    Map<String, Object> map = new LinkedHashMap<>();
                    while (parser.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                        String name = parser.currentName();
                        parser.nextToken();
                        map.put(name, read(parser));
                    }
                    return map;
                }
                case START_ARRAY: {
                    List<Object> list = new java.util.ArrayList<>();
                    while (parser.nextToken() != com.fasterxml.jackson.core.JsonToken.END_ARRAY) {
                        list.add(read(parser));
                    }
                    return list;
                }
                case VALUE_NULL:
                    return null;
                case VALUE_NUMBER_INT:
                case VALUE_NUMBER_FLOAT:
                    return parser.getNumberValue();
                default:
                    return parser.getText();
            }
        }
    }

    @Test
    void namesAResourceByItsUriAndAPromptByItsNameWithTheirKind() {
        Decision allowed = new Decision(Effect.ALLOW, Effect.ALLOW, "/resources/file:~1~1~1public~1*", null, 0);
        ToolCall read = ToolCall.resource(Side.CLIENT, "docs", "file:///public/a b.txt", "s1", "c1");
        String line = new DecisionRecord(AT, read, allowed, 2, false, null, "aws-access-token:1").toLine();
        assertThat(line).startsWith("mcp-policy decision=ALLOW kind=resource uri=\"file:///public/a b.txt\" side=client server=docs ")
                .contains(" redacted=aws-access-token:1 ").doesNotContain(" tool=");
        assertThat(new DecisionRecord(AT, read, allowed, 2, false, null, "aws-access-token:1").toJson())
                .contains("\"kind\":\"resource\",\"uri\":\"file:///public/a b.txt\",").contains("\"redacted\":\"aws-access-token:1\"")
                .doesNotContain("\"tool\"");

        ToolCall prompt = ToolCall.prompt(Side.SERVER, null, "summarize", Map.of("style", "short"), "s1", "c1");
        assertThat(new DecisionRecord(AT, prompt, allowed, 2, false).toLine())
                .startsWith("mcp-policy decision=ALLOW kind=prompt prompt=summarize side=server ").contains(" arg_keys=style ")
                .doesNotContain("redacted=");
        assertThat(new DecisionRecord(AT, prompt, allowed, 2, false).toJson()).contains("\"kind\":\"prompt\",\"prompt\":\"summarize\",")
                .doesNotContain("redacted");
    }
}
