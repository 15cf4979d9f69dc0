package dev.mcppolicy.demo.conformance;

import static dev.mcppolicy.demo.conformance.SampleContent.embeddedText;
import static dev.mcppolicy.demo.conformance.SampleContent.image;
import static dev.mcppolicy.demo.conformance.SampleContent.text;

import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.AudioContent;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageRequest;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.SamplingMessage;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The tools the conformance suite calls by name ({@code tools-call-*}, {@code elicitation-sep*}),
 * each returning the content its scenario checks for.
 */
final class ConformanceTools {
    private ConformanceTools() {
    }

    static List<SyncToolSpecification> all() {
        return List.of(
                tool("test_simple_text", "Returns one text content", noArguments(),
                        (exchange, request) -> result(text("This is a simple text response for testing."))),
                tool("test_image_content", "Returns one image content", noArguments(),
                        (exchange, request) -> result(image())),
                tool("test_audio_content", "Returns one audio content", noArguments(),
                        (exchange, request) -> result(AudioContent.builder(SampleContent.WAV, SampleContent.WAV_MIME)
                                .build())),
                tool("test_embedded_resource", "Returns one embedded text resource", noArguments(),
                        (exchange, request) -> result(embeddedText("test://embedded-resource", "text/plain",
                                "This is an embedded resource content."))),
                tool("test_multiple_content_types", "Returns text, image and an embedded resource together",
                        noArguments(),
                        (exchange, request) -> result(text("Multiple content types test:"), image(),
                                embeddedText("test://mixed-content-resource", "application/json",
                                        "{\"test\":\"data\",\"value\":123}"))),
                tool("test_tool_with_logging", "Sends three log notifications while it runs", noArguments(),
                        ConformanceTools::logThreeTimes),
                tool("test_error_handling", "Always fails, as a tool result with isError", noArguments(),
                        (exchange, request) -> CallToolResult.builder()
                                .content(List.of(text("This tool intentionally returns an error for testing")))
                                .isError(true)
                                .build()),
                tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100", noArguments(),
                        ConformanceTools::reportProgress),
                tool("test_sampling", "Asks the client's LLM to answer a prompt",
                        stringArguments(Map.of("prompt", "The prompt to send to the LLM")),
                        ConformanceTools::sample),
                tool("test_elicitation", "Asks the user for a username and an email address",
                        stringArguments(Map.of("message", "The message to show the user")),
                        (exchange, request) -> elicit(exchange, String.valueOf(request.arguments().get("message")),
                                Elicitations.usernameAndEmail())),
                tool("test_elicitation_sep1034_defaults", "Elicits one field of each primitive type, with defaults",
                        noArguments(),
                        (exchange, request) -> elicit(exchange, "Please provide your information with defaults",
                                Elicitations.primitivesWithDefaults())),
                tool("test_elicitation_sep1330_enums", "Elicits the five enum variants of SEP-1330",
                        noArguments(),
                        (exchange, request) -> elicit(exchange, "Select your preferences",
                                Elicitations.enumVariants())),
                tool("json_schema_2020_12_tool", "Declares its input in JSON Schema 2020-12 ($schema, $defs, $ref)",
                        schema2020WithAddress(),
                        (exchange, request) -> result(text("Received: " + request.arguments()))));
    }

    /**
     * The pending {@code json-schema-2020-12} scenario (SEP-1613) checks that {@code tools/list} keeps
     * {@code $schema}, {@code $defs} and {@code additionalProperties} as declared: the listing must pass
     * through the server, and any agent rewriting it, untouched.
     */
    private static Map<String, Object> schema2020WithAddress() {
        Map<String, Object> address = Map.of("type", "object", "properties", Map.of(
                "street", Map.of("type", "string"),
                "city", Map.of("type", "string")));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        schema.put("type", "object");
        schema.put("$defs", Map.of("address", address));
        schema.put("properties", Map.of(
                "name", Map.of("type", "string"),
                "address", Map.of("$ref", "#/$defs/address")));
        schema.put("additionalProperties", false);
        return schema;
    }

    private static CallToolResult logThreeTimes(McpSyncServerExchange exchange, CallToolRequest request) {
        for (String stage : List.of("Tool execution started", "Tool processing data", "Tool execution completed")) {
            exchange.loggingNotification(LoggingMessageNotification.builder(LoggingLevel.INFO, stage)
                    .logger("test_tool_with_logging")
                    .build());
        }
        return result(text("Tool execution completed with logging"));
    }

    private static CallToolResult reportProgress(McpSyncServerExchange exchange, CallToolRequest request) {
        Object token = request.meta() == null ? null : request.meta().get("progressToken");
        if (token == null) {
            return result(text("Tool execution completed without progress (no progressToken)"));
        }
        for (double progress : new double[] {0, 50, 100}) {
            exchange.progressNotification(ProgressNotification.builder(token, progress).total(100.0).build());
        }
        return result(text("Tool execution completed with progress"));
    }

    private static CallToolResult sample(McpSyncServerExchange exchange, CallToolRequest request) {
        String prompt = String.valueOf(request.arguments().get("prompt"));
        CreateMessageResult answer = exchange.createMessage(CreateMessageRequest.builder(
                List.of(SamplingMessage.builder(Role.USER, text(prompt)).build()), 100).build());
        String said = answer.content() instanceof TextContent reply ? reply.text() : String.valueOf(answer.content());
        return result(text("LLM response: " + said));
    }

    private static CallToolResult elicit(McpSyncServerExchange exchange, String message, Map<String, Object> schema) {
        ElicitResult answer = exchange.createElicitation(ElicitFormRequest.builder(message, schema).build());
        return result(text("Elicitation completed: action=" + answer.action().name().toLowerCase(Locale.ROOT)
                + ", content=" + answer.content()));
    }

    private static SyncToolSpecification tool(String name, String description, Map<String, Object> inputSchema,
            BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler) {
        return SyncToolSpecification.builder()
                .tool(Tool.builder(name, inputSchema).description(description).build())
                .callHandler(handler)
                .build();
    }

    private static Map<String, Object> noArguments() {
        return Map.of("type", "object", "properties", Map.of());
    }

    /** A schema of required string arguments, from name to description. */
    private static Map<String, Object> stringArguments(Map<String, String> descriptions) {
        Map<String, Object> properties = new LinkedHashMap<>();
        descriptions.forEach((name, description) ->
                properties.put(name, Map.of("type", "string", "description", description)));
        return Map.of("type", "object", "properties", properties, "required", List.copyOf(descriptions.keySet()));
    }

    private static CallToolResult result(Content... content) {
        return CallToolResult.builder().content(List.of(content)).isError(false).build();
    }
}
