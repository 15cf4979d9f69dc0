package dev.mcppolicy.demo.conformance;

import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.spec.McpSchema.BlobResourceContents;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The resources the {@code resources-*} scenarios read and subscribe to. Subscriptions themselves are
 * the SDK's: a server that declares {@code resources.subscribe} gets its subscribe handlers.
 */
final class ConformanceResources {
    private static final String TEMPLATE = "test://template/{id}/data";
    private static final Pattern TEMPLATE_URI = Pattern.compile("test://template/([\\w.-]+)/data");

    private ConformanceResources() {
    }

    static List<SyncResourceSpecification> all() {
        return List.of(
                text("test://static-text", "Static text", "This is the content of the static text resource."),
                resource(Resource.builder("test://static-binary", "Static binary")
                                .description("A 1x1 PNG image")
                                .mimeType(SampleContent.PNG_MIME)
                                .build(),
                        BlobResourceContents.builder("test://static-binary", SampleContent.PNG)
                                .mimeType(SampleContent.PNG_MIME)
                                .build()),
                text("test://watched-resource", "Watched resource", "This is a watched resource content."));
    }

    static List<SyncResourceTemplateSpecification> templates() {
        ResourceTemplate template = ResourceTemplate.builder(TEMPLATE, "Template data")
                .description("JSON data for the id in the URI")
                .mimeType("application/json")
                .build();
        return List.of(new SyncResourceTemplateSpecification(template,
                (exchange, request) -> ReadResourceResult.builder(List.of(templateData(request.uri()))).build()));
    }

    private static ResourceContents templateData(String uri) {
        Matcher matcher = TEMPLATE_URI.matcher(uri);
        String id = matcher.matches() ? matcher.group(1) : "";
        String json = "{\"id\":\"" + id + "\",\"templateTest\":true,\"data\":\"Data for ID: " + id + "\"}";
        return TextResourceContents.builder(uri, json).mimeType("application/json").build();
    }

    private static SyncResourceSpecification text(String uri, String name, String content) {
        return resource(Resource.builder(uri, name).description(name + " for testing").mimeType("text/plain").build(),
                TextResourceContents.builder(uri, content).mimeType("text/plain").build());
    }

    private static SyncResourceSpecification resource(Resource resource, ResourceContents contents) {
        return new SyncResourceSpecification(resource,
                (exchange, request) -> ReadResourceResult.builder(List.of(contents)).build());
    }
}
