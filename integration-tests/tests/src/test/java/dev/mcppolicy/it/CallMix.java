package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code N} {@code tools/call} requests of five kinds, interleaved so that answers made on different
 * SDK threads follow each other closely: allowed {@code echo} and {@code run_command ls} (the handler
 * runs on a worker thread), {@code run_command rm -rf} denied by a {@code deny_if}, a {@code transfer}
 * whose amount is smuggled past {@code deny_if amount gt 1000} as {@code "5000"} or {@code [5000]} (issue 9)
 * and an unlisted tool denied by default (answered at once on the transport's inbound thread), {@code limited} cut by a
 * limit of {@link #LIMIT}, and a hidden tool (answered as unknown). Checks that every request got
 * exactly one answer, of the right kind.
 */
final class CallMix {
    static final ObjectMapper JSON = new ObjectMapper();
    static final int LIMIT = 25;

    /** The server's policy for the mix. */
    static final String POLICY = """
            {
              "version": "1",
              "default": "deny",
              "hide": ["secret_tool"],
              "tools": {
                "echo": {},
                "secret_tool": {},
                "run_command": { "deny_if": [ { "path": "command", "op": "contains", "value": "rm -rf" } ] },
                "transfer": { "deny_if": [ { "path": "amount", "op": "gt", "value": 1000 } ] },
                "limited": { "limits": [ { "counter": "limited", "window": "hour", "max": %d, "scope": "session" } ] }
              }
            }
            """.formatted(LIMIT);

    enum Kind { ECHO, LS, RM, SMUGGLED, UNLISTED, LIMITED, HIDDEN }

    private final Map<String, Kind> kinds = new LinkedHashMap<>();
    private final List<String> requests = new ArrayList<>();

    /** {@code n} calls: the kinds in turn, so that no two neighbours are of one kind. */
    CallMix(int n) {
        Kind[] order = {Kind.ECHO, Kind.RM, Kind.LIMITED, Kind.LS, Kind.SMUGGLED, Kind.UNLISTED, Kind.LIMITED, Kind.HIDDEN};
        for (int i = 0; i < n; i++) {
            Kind kind = order[i % order.length];
            String id = "c" + i;
            kinds.put(id, kind);
            requests.add(request(id, kind));
        }
    }

    List<String> requests() {
        return requests;
    }

    /**
     * The requests as a client of the 2026-07-28 protocol (the SDK 2.2 modern API) sends them: no session, and
     * each request's {@code _meta} carries the protocol version, the client's capabilities and its info.
     */
    List<String> modernRequests() throws java.io.IOException {
        List<String> modern = new ArrayList<>();
        for (String request : requests) {
            modern.add(StdioRpc.forSdk(StdioRpc.MODERN, request));
        }
        return modern;
    }

    /** The protocol version of the SDK 2.2 modern API. */
    static final String MODERN_PROTOCOL = "2026-07-28";

    /** The calls as {@code [{"id", "name", "arguments"}, ...]}, for a client that makes them itself. */
    String callsJson() throws java.io.IOException {
        ArrayNode calls = JSON.createArrayNode();
        for (String request : requests) {
            JsonNode parsed = JSON.readTree(request);
            calls.addObject().put("id", parsed.get("id").asText()).put("name", parsed.path("params").path("name").asText())
                    .set("arguments", parsed.path("params").path("arguments"));
        }
        return calls.toString();
    }

    long count(Kind kind) {
        return kinds.values().stream().filter(kind::equals).count();
    }

    int size() {
        return kinds.size();
    }

    private static String request(String id, Kind kind) {
        ObjectNode arguments = JSON.createObjectNode();
        String tool;
        switch (kind) {
            case ECHO -> {
                tool = "echo";
                arguments.put("text", id);
            }
            case LS -> {
                tool = "run_command";
                arguments.put("command", "ls " + id);
            }
            case RM -> {
                tool = "run_command";
                arguments.put("command", "rm -rf /" + id);
            }
            case SMUGGLED -> {
                tool = "transfer";
                if (Integer.parseInt(id.substring(1)) / 8 % 2 == 0) { // the two shapes in turn
                    arguments.put("amount", "5000");
                } else {
                    arguments.putArray("amount").add(5000);
                }
            }
            case UNLISTED -> tool = "unlisted_tool";
            case LIMITED -> tool = "limited";
            default -> tool = "secret_tool";
        }
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
        request.putObject("params").put("name", tool).set("arguments", arguments);
        return request.toString();
    }

    /** The answers by request id (JSON-RPC responses whose id is one of ours; other lines are ignored). */
    static Map<String, List<JsonNode>> byId(List<String> lines) {
        Map<String, List<JsonNode>> answers = new LinkedHashMap<>();
        for (String line : lines) {
            JsonNode message = parse(line);
            if (message != null && message.has("id") && (message.has("result") || message.has("error"))) {
                answers.computeIfAbsent(message.get("id").asText(), key -> new ArrayList<>()).add(message);
            }
        }
        return answers;
    }

    static JsonNode parse(String line) {
        try {
            return line.startsWith("{") ? JSON.readTree(line) : null;
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /** Every request answered exactly once, each as its kind must be; exactly {@link #LIMIT} {@code limited} admitted. */
    void assertAnswered(Map<String, List<JsonNode>> answers, String context) {
        List<String> unanswered = new ArrayList<>();
        List<String> twice = new ArrayList<>();
        for (String id : kinds.keySet()) {
            List<JsonNode> got = answers.get(id);
            if (got == null) {
                unanswered.add(id + " (" + kinds.get(id) + ")");
            } else if (got.size() > 1) {
                twice.add(id);
            }
        }
        assertThat(unanswered).as("unanswered requests, of %d; %s", size(), context).isEmpty();
        assertThat(twice).as("requests answered more than once; %s", context).isEmpty();
        int admitted = 0;
        for (Map.Entry<String, Kind> entry : kinds.entrySet()) {
            JsonNode answer = answers.get(entry.getKey()).get(0);
            String id = entry.getKey();
            switch (entry.getValue()) {
                case ECHO -> assertResult(answer, false, "echo: " + id);
                case LS -> assertResult(answer, false, "run_command done");
                case RM -> assertThat(text(answer)).as(answer.toString())
                        .startsWith("Policy denied tool 'run_command': denied by condition: ")
                        .endsWith("[rule /tools/run_command/deny_if/0]");
                case SMUGGLED -> assertThat(text(answer)).as(answer.toString())
                        .startsWith("Policy denied tool 'transfer': denied by condition: amount gt 1000")
                        .endsWith("[rule /tools/transfer/deny_if/0]");
                case UNLISTED -> assertThat(text(answer)).as(answer.toString()).startsWith("Policy denied tool 'unlisted_tool'")
                        .endsWith("[rule (default)]");
                // a JSON-RPC error, or (the Kotlin SDK's answer for a tool it does not have) an isError result saying so
                case HIDDEN -> assertThat(answer.has("error") || isError(answer) && text(answer).equals("Tool secret_tool not found"))
                        .as(answer.toString()).isTrue();
                case LIMITED -> {
                    if (!isError(answer)) {
                        assertResult(answer, false, "limited done");
                        admitted++;
                    } else {
                        assertThat(text(answer)).as(answer.toString()).startsWith("Policy denied tool 'limited': rate limit exceeded")
                                .contains("[rule /tools/limited/limits/0]");
                    }
                }
                default -> throw new AssertionError(entry.getValue());
            }
        }
        assertThat(admitted).as("limited calls admitted by a limit of %d", LIMIT).isEqualTo(LIMIT);
    }

    private static void assertResult(JsonNode answer, boolean isError, String text) {
        assertThat(answer.has("result")).as(answer.toString()).isTrue();
        assertThat(isError(answer)).as(answer.toString()).isEqualTo(isError);
        assertThat(text(answer)).as(answer.toString()).isEqualTo(text);
    }

    private static boolean isError(JsonNode answer) {
        return answer.path("result").path("isError").asBoolean(false);
    }

    private static String text(JsonNode answer) {
        return answer.path("result").path("content").path(0).path("text").asText();
    }
}
