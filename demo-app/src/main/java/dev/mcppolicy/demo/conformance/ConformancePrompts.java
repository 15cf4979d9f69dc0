package dev.mcppolicy.demo.conformance;

import static dev.mcppolicy.demo.conformance.SampleContent.embeddedText;
import static dev.mcppolicy.demo.conformance.SampleContent.image;
import static dev.mcppolicy.demo.conformance.SampleContent.text;

import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult.CompleteCompletion;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptArgument;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.PromptReference;
import io.modelcontextprotocol.spec.McpSchema.Role;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The prompts the {@code prompts-*} scenarios get by name, and the completion of their arguments. */
final class ConformancePrompts {
    private static final String WITH_ARGUMENTS = "test_prompt_with_arguments";

    private ConformancePrompts() {
    }

    static List<SyncPromptSpecification> all() {
        return List.of(
                prompt("test_simple_prompt", "A prompt without arguments", List.of(),
                        arguments -> messages(text("This is a simple prompt for testing."))),
                prompt(WITH_ARGUMENTS, "A prompt that quotes its two arguments",
                        List.of(required("arg1", "First test argument"), required("arg2", "Second test argument")),
                        arguments -> messages(text("Prompt with arguments: arg1='"
                                + arguments.get("arg1") + "', arg2='" + arguments.get("arg2") + "'"))),
                prompt("test_prompt_with_embedded_resource", "A prompt that embeds the resource it is given",
                        List.of(required("resourceUri", "URI of the resource to embed")),
                        arguments -> messages(
                                embeddedText(String.valueOf(arguments.get("resourceUri")),
                                        "text/plain", "Embedded resource content for testing."),
                                text("Please process the embedded resource above."))),
                prompt("test_prompt_with_image", "A prompt that shows an image", List.of(),
                        arguments -> messages(image(),
                                text("Please analyze the image above."))));
    }

    /** Completes the arguments of {@value #WITH_ARGUMENTS}; the suite checks the shape, not the values. */
    static List<SyncCompletionSpecification> completions() {
        return List.of(new SyncCompletionSpecification(new PromptReference(WITH_ARGUMENTS),
                (exchange, request) -> complete(request)));
    }

    private static CompleteResult complete(CompleteRequest request) {
        String typed = request.argument().value();
        List<String> values = List.of("alpha", "beta", "gamma").stream()
                .filter(value -> value.startsWith(typed == null ? "" : typed))
                .toList();
        return new CompleteResult(new CompleteCompletion(values, values.size(), false));
    }

    private static SyncPromptSpecification prompt(String name, String description, List<PromptArgument> arguments,
            Function<Map<String, Object>, List<PromptMessage>> messages) {
        Prompt prompt = Prompt.builder(name).description(description).arguments(arguments).build();
        return new SyncPromptSpecification(prompt, (exchange, request) -> answer(request, messages));
    }

    private static GetPromptResult answer(GetPromptRequest request,
            Function<Map<String, Object>, List<PromptMessage>> messages) {
        Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
        return GetPromptResult.builder(messages.apply(arguments)).build();
    }

    private static PromptArgument required(String name, String description) {
        return PromptArgument.builder(name).description(description).required(true).build();
    }

    private static List<PromptMessage> messages(Content... contents) {
        return Arrays.stream(contents).map(content -> PromptMessage.builder(Role.USER, content).build()).toList();
    }
}
