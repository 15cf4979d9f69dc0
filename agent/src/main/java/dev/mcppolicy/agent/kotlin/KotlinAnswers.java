package dev.mcppolicy.agent.kotlin;

import static dev.mcppolicy.agent.sdk.Reflection.call;

import dev.mcppolicy.engine.ResultJudge;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Kotlin MCP SDK's answers as a result rule reads them (SPEC §13), and the same answers rebuilt with what the rule
 * redacted. Its answer types are Kotlin data classes (not records), read by their getters and rebuilt through their
 * public constructors:
 * <ul>
 *   <li>{@code CallToolResult(content, isError, structuredContent, meta)}: each {@code TextContent} a text part, an
 *       {@code EmbeddedResource}'s text contents too; its {@code structuredContent} (a kotlinx {@code JsonObject}) is
 *       the structured content, read as plain Java and written back as kotlinx JSON;</li>
 *   <li>{@code ReadResourceResult(contents, meta)}: each {@code TextResourceContents} a text part;</li>
 *   <li>{@code GetPromptResult(messages, description, meta)}: each {@code PromptMessage}'s text (or embedded text
 *       resource) a text part.</li>
 * </ul>
 * Images, audio and blobs are base64 the judge counts as bytes it cannot read. A part nothing was redacted from is kept
 * as it is; any other answer type cannot be read (the caller fails closed).
 */
final class KotlinAnswers {
    private static final String TYPES = "io.modelcontextprotocol.kotlin.sdk.types.";

    private KotlinAnswers() {
    }

    /** Whether {@code answer} is one a result rule judges. */
    static boolean isAnswer(Object answer) {
        return is(answer, "CallToolResult") || is(answer, "ReadResourceResult") || is(answer, "GetPromptResult");
    }

    static ResultJudge.Answer read(Object answer) throws ReflectiveOperationException {
        List<String> texts = new ArrayList<>();
        long[] bytes = {0};
        Object structured = null;
        if (is(answer, "CallToolResult")) {
            for (Object content : (List<?>) call(answer, "getContent")) {
                readContent(content, texts, bytes);
            }
            Object json = call(answer, "getStructuredContent");
            structured = json == null ? null : KotlinObjects.plain(json);
        } else if (is(answer, "ReadResourceResult")) {
            for (Object contents : (List<?>) call(answer, "getContents")) {
                readContents(contents, texts, bytes);
            }
        } else if (is(answer, "GetPromptResult")) {
            for (Object message : (List<?>) call(answer, "getMessages")) {
                readContent(call(message, "getContent"), texts, bytes);
            }
        } else {
            throw new IllegalStateException("a Kotlin MCP SDK answer of an unknown shape: " + (answer == null ? null : answer.getClass()));
        }
        return new ResultJudge.Answer(texts, structured, bytes[0]);
    }

    private static void readContent(Object content, List<String> texts, long[] bytes) throws ReflectiveOperationException {
        if (is(content, "TextContent")) {
            texts.add((String) call(content, "getText"));
        } else if (is(content, "EmbeddedResource")) {
            readContents(call(content, "getResource"), texts, bytes);
        } else if (is(content, "ImageContent") || is(content, "AudioContent")) {
            bytes[0] += ((String) call(content, "getData")).length();
        }
        // a resource link holds no content
    }

    private static void readContents(Object contents, List<String> texts, long[] bytes) throws ReflectiveOperationException {
        if (is(contents, "TextResourceContents")) {
            texts.add((String) call(contents, "getText"));
        } else if (is(contents, "BlobResourceContents")) {
            bytes[0] += ((String) call(contents, "getBlob")).length();
        }
    }

    /** {@code answer} with its text parts replaced by {@code texts} (in {@link #read}'s order) and its structured content by {@code structured}. */
    static Object rebuild(Object answer, List<String> texts, Object structured) throws ReflectiveOperationException {
        ClassLoader sdk = answer.getClass().getClassLoader();
        int[] next = {0};
        if (is(answer, "CallToolResult")) {
            List<?> content = (List<?>) call(answer, "getContent");
            List<Object> rebuilt = new ArrayList<>(content.size());
            for (Object each : content) {
                rebuilt.add(rebuildContent(each, texts, next, sdk));
            }
            Object json = call(answer, "getStructuredContent");
            Object newJson = json == null ? null : json(structured, sdk);
            return construct(answer.getClass(), 4).newInstance(rebuilt, call(answer, "isError"), newJson, call(answer, "getMeta"));
        }
        if (is(answer, "ReadResourceResult")) {
            List<?> contents = (List<?>) call(answer, "getContents");
            List<Object> rebuilt = new ArrayList<>(contents.size());
            for (Object each : contents) {
                rebuilt.add(rebuildContents(each, texts, next));
            }
            return construct(answer.getClass(), 2).newInstance(rebuilt, call(answer, "getMeta"));
        }
        List<?> messages = (List<?>) call(answer, "getMessages");
        List<Object> rebuilt = new ArrayList<>(messages.size());
        for (Object message : messages) {
            Object content = call(message, "getContent");
            Object again = rebuildContent(content, texts, next, sdk);
            rebuilt.add(again == content ? message : construct(message.getClass(), 2).newInstance(call(message, "getRole"), again));
        }
        return construct(answer.getClass(), 3).newInstance(rebuilt, call(answer, "getDescription"), call(answer, "getMeta"));
    }

    private static Object rebuildContent(Object content, List<String> texts, int[] next, ClassLoader sdk) throws ReflectiveOperationException {
        if (is(content, "TextContent")) {
            String text = texts.get(next[0]++);
            return text.equals(call(content, "getText")) ? content
                    : construct(content.getClass(), 3).newInstance(text, call(content, "getAnnotations"), call(content, "getMeta"));
        }
        if (is(content, "EmbeddedResource")) {
            Object resource = call(content, "getResource");
            Object again = rebuildContents(resource, texts, next);
            return again == resource ? content
                    : construct(content.getClass(), 3).newInstance(again, call(content, "getAnnotations"), call(content, "getMeta"));
        }
        return content;
    }

    private static Object rebuildContents(Object contents, List<String> texts, int[] next) throws ReflectiveOperationException {
        if (!is(contents, "TextResourceContents")) {
            return contents;
        }
        String text = texts.get(next[0]++);
        if (text.equals(call(contents, "getText"))) {
            return contents;
        }
        return construct(contents.getClass(), 4).newInstance(text, call(contents, "getUri"), call(contents, "getMimeType"),
                call(contents, "getMeta"));
    }

    /**
     * Plain Java JSON (maps, lists, strings, numbers, booleans, {@code null}) as kotlinx.serialization JSON
     * ({@code JsonObject}, {@code JsonArray}, {@code JsonPrimitive}, {@code JsonNull}) of the app's loader.
     */
    static Object json(Object value, ClassLoader sdk) throws ReflectiveOperationException {
        String json = "kotlinx.serialization.json.";
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> content = new LinkedHashMap<>(Math.max(4, map.size() * 2));
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                content.put(String.valueOf(entry.getKey()), json(entry.getValue(), sdk));
            }
            return Class.forName(json + "JsonObject", false, sdk).getConstructor(Map.class).newInstance(content);
        }
        if (value instanceof List<?> list) {
            List<Object> content = new ArrayList<>(list.size());
            for (Object item : list) {
                content.add(json(item, sdk));
            }
            return Class.forName(json + "JsonArray", false, sdk).getConstructor(List.class).newInstance(content);
        }
        if (value == null) {
            return Class.forName(json + "JsonNull", false, sdk).getField("INSTANCE").get(null);
        }
        Class<?> elements = Class.forName(json + "JsonElementKt", false, sdk);
        Class<?> type = value instanceof String ? String.class : value instanceof Number ? Number.class : Boolean.class;
        if (!(value instanceof String || value instanceof Number || value instanceof Boolean)) {
            throw new IllegalStateException("not a JSON value: " + value.getClass());
        }
        return elements.getMethod("JsonPrimitive", type).invoke(null, value);
    }

    /** A data class's public constructor of {@code arity} parameters (its primary one: the others add markers). */
    private static Constructor<?> construct(Class<?> type, int arity) throws NoSuchMethodException {
        for (Constructor<?> constructor : type.getConstructors()) {
            Class<?>[] parameters = constructor.getParameterTypes();
            if (parameters.length == arity && (arity == 0 || !parameters[0].equals(int.class))) {
                return constructor;
            }
        }
        throw new NoSuchMethodException(type.getName() + " has no public constructor of " + arity + " parameters");
    }

    private static boolean is(Object value, String simpleName) {
        return value != null && value.getClass().getName().equals(TYPES + simpleName);
    }
}
