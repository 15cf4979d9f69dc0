package dev.mcppolicy.agent.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mcppolicy.engine.ResultJudge;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Answers} on records shaped like the SDK's answers (the SDK is not on this module's test class path). */
class AnswersTest {
    interface Content {
    }

    record TextContent(List<String> audience, Double priority, String text) implements Content {
    }

    record ImageContent(String data, String mimeType) implements Content {
    }

    record TextResourceContents(String uri, String mimeType, String text) {
    }

    record EmbeddedResource(List<String> audience, TextResourceContents resource) implements Content {
    }

    record CallToolResult(List<Content> content, Boolean isError, Map<String, Object> structuredContent) {
    }

    record PromptMessage(String role, Content content) {
    }

    record GetPromptResult(String description, List<PromptMessage> messages) {
    }

    record Resource(String uri, String name) {
    }

    record ListResourcesResult(List<Resource> resources, String nextCursor) {
    }

    record Nested(List<Object> inner) {
    }

    private static final CallToolResult RESULT = new CallToolResult(List.of(new TextContent(null, null, "one"),
            new ImageContent("QUJD", "image/png"), new EmbeddedResource(null, new TextResourceContents("file:///a", "text/plain", "two"))),
            false, Map.of("k", "v"));

    @Test
    void readsEveryTextInOrderCountsBase64AsOtherBytesAndKeepsStructuredContent() throws Exception {
        ResultJudge.Answer answer = Answers.read(RESULT);
        assertThat(answer.texts()).containsExactly("one", "two");
        assertThat(answer.otherBytes()).isEqualTo(4);
        assertThat(answer.structured()).isEqualTo(Map.of("k", "v"));
        assertThat(Answers.read(new GetPromptResult("d", List.of(new PromptMessage("user", new TextContent(null, null, "hi"))))).texts())
                .containsExactly("hi");
    }

    @Test
    void rebuildsOnlyTheRecordsThatChangedAndReturnsTheSameAnswerWhenNothingDid() throws Exception {
        assertThat(Answers.rebuild(RESULT, List.of("one", "two"), RESULT.structuredContent())).isSameAs(RESULT);

        CallToolResult rebuilt = (CallToolResult) Answers.rebuild(RESULT, List.of("one", "[REDACTED:x]"), Map.of("k", "[REDACTED:x]"));
        assertThat(rebuilt.content().get(0)).isSameAs(RESULT.content().get(0));
        assertThat(rebuilt.content().get(1)).isSameAs(RESULT.content().get(1));
        assertThat(((EmbeddedResource) rebuilt.content().get(2)).resource())
                .isEqualTo(new TextResourceContents("file:///a", "text/plain", "[REDACTED:x]"));
        assertThat(rebuilt.isError()).isFalse();
        assertThat(rebuilt.structuredContent()).isEqualTo(Map.of("k", "[REDACTED:x]"));
    }

    /** A tool's answer whose structured content is any object (Quarkus's {@code ToolResponse}, the SDK's since 0.11). */
    record ToolResponse(boolean isError, List<Content> content, Object structuredContent) {
    }

    /** What an app puts there: its own object, which the SDK writes with the app's Jackson. */
    public record Profile(String name, String token, List<String> tags) {
    }

    @Test
    void readsAnObjectOfTheAppsOwnAsStructuredContentTheWayItsJacksonWritesItAndRebuildsWithThatJson() throws Exception {
        ToolResponse answer = new ToolResponse(false, List.of(new TextContent(null, null, "ok")), new Profile("ci", "secret", List.of("a")));
        ResultJudge.Answer read = Answers.read(answer);
        assertThat(read.structured()).isEqualTo(Map.of("name", "ci", "token", "secret", "tags", List.of("a")));
        ToolResponse rebuilt = (ToolResponse) Answers.rebuild(answer, List.of("ok"), Map.of("name", "ci", "token", "[REDACTED:x]", "tags", List.of("a")));
        assertThat(rebuilt.structuredContent()).isEqualTo(Map.of("name", "ci", "token", "[REDACTED:x]", "tags", List.of("a")));
        // JSON already: the same object, nothing converted
        Map<String, Object> json = Map.of("k", List.of(1, "v"));
        assertThat(Answers.read(new ToolResponse(false, List.of(), json)).structured()).isSameAs(json);
        // a map that holds an object of the app's: converted whole
        assertThat(Answers.read(new ToolResponse(false, List.of(), Map.of("p", new Profile("x", "y", List.of())))).structured())
                .isEqualTo(Map.of("p", Map.of("name", "x", "token", "y", "tags", List.of())));
    }

    /** Jackson writes no JSON for an object with no properties (FAIL_ON_EMPTY_BEANS): left as it is, for the judge to deny. */
    static final class Opaque {
    }

    @Test
    void anObjectTheAppsJacksonCannotWriteIsLeftForTheJudgeToDeny() throws Exception {
        Opaque opaque = new Opaque();
        assertThat(Answers.read(new ToolResponse(false, List.of(), opaque)).structured()).isSameAs(opaque);
    }

    @Test
    void anAnswerNestedDeeperThanItCanReadIsRefused() {
        Object deep = new TextContent(null, null, "bottom");
        for (int i = 0; i < Answers.MAX_DEPTH + 2; i++) {
            deep = new Nested(List.of(deep));
        }
        Object answer = deep;
        assertThatThrownBy(() -> Answers.read(answer)).isInstanceOf(IllegalStateException.class).hasMessageContaining("levels deep");
    }

    @Test
    void filtersAListResultByItsEntriesNamesAndKeepsTheOtherComponents() throws Exception {
        ListResourcesResult list = new ListResourcesResult(List.of(new Resource("file:///a", "a"), new Resource("file:///b", "b")), "next");
        assertThat(Answers.filterList(list, "resources", "uri", uri -> true)).isSameAs(list);
        assertThat(Answers.filterList(list, "resources", "uri", uri -> uri.endsWith("b")))
                .isEqualTo(new ListResourcesResult(List.of(new Resource("file:///b", "b")), "next"));
    }
}
