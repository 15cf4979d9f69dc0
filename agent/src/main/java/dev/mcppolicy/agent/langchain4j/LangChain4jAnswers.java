package dev.mcppolicy.agent.langchain4j;

import dev.mcppolicy.engine.ResultJudge;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * LangChain4j's MCP answers as a result rule reads them (SPEC §13), and the same answers rebuilt with what the rule
 * redacted. Its answer types are plain classes, the same from 1.0 to 1.18, so this reads them by their accessors:
 * <ul>
 *   <li>{@code executeTool}: a {@code String} (1.0), or a {@code ToolExecutionResult} whose {@code resultText} is the
 *       text, unless its {@code result} is the server's structured content (a map or a list), which is then judged as
 *       structured content and the text rebuilt from it as the client wrote it (its own Jackson mapper);</li>
 *   <li>{@code readResource}: an {@code McpReadResourceResult}, each {@code McpTextResourceContents} a text part
 *       ({@code McpBlobResourceContents} are bytes the judge cannot read);</li>
 *   <li>{@code getPrompt}: an {@code McpGetPromptResult}, each message's {@code McpTextContent} (or embedded text
 *       resource) a text part.</li>
 * </ul>
 * A part nothing was redacted from is kept as it is; any other shape cannot be read (the caller fails closed).
 */
final class LangChain4jAnswers {
    private static final String PACKAGE = "dev.langchain4j.mcp.client.";
    private static final String TOOL_RESULT = "dev.langchain4j.service.tool.ToolExecutionResult";

    private LangChain4jAnswers() {
    }

    static ResultJudge.Answer read(Object answer) throws ReflectiveOperationException {
        List<String> texts = new ArrayList<>();
        long[] bytes = {0};
        Object structured = null;
        if (answer instanceof String text) {
            texts.add(text);
        } else if (is(answer, TOOL_RESULT)) {
            Object result = call(answer, "result");
            if (result instanceof Map<?, ?> || result instanceof List<?>) {
                structured = result;
            } else {
                texts.add((String) call(answer, "resultText"));
            }
        } else if (is(answer, PACKAGE + "McpReadResourceResult")) {
            for (Object contents : (List<?>) call(answer, "contents")) {
                readContents(contents, texts, bytes);
            }
        } else if (is(answer, PACKAGE + "McpGetPromptResult")) {
            for (Object message : (List<?>) call(answer, "messages")) {
                Object content = call(message, "content");
                if (is(content, PACKAGE + "McpTextContent")) {
                    texts.add((String) call(content, "text"));
                } else if (is(content, PACKAGE + "McpEmbeddedResource")) {
                    readContents(call(content, "resource"), texts, bytes);
                } else if (content != null) {
                    // an image or audio: base64 the judge cannot read
                    Object data = callIfPresent(content, "data");
                    bytes[0] += data instanceof String s ? s.length() : 0;
                }
            }
        } else {
            throw new IllegalStateException("a LangChain4j answer of an unknown shape: " + (answer == null ? null : answer.getClass()));
        }
        return new ResultJudge.Answer(texts, structured, bytes[0]);
    }

    private static void readContents(Object contents, List<String> texts, long[] bytes) throws ReflectiveOperationException {
        if (is(contents, PACKAGE + "McpTextResourceContents")) {
            texts.add((String) call(contents, "text"));
        } else if (contents != null) {
            Object blob = callIfPresent(contents, "blob");
            bytes[0] += blob instanceof String s ? s.length() : 0;
        }
    }

    /** {@code answer} with its text parts replaced by {@code texts} (in {@link #read}'s order) and its structured content by {@code structured}. */
    static Object rebuild(Object answer, List<String> texts, Object structured, Object mapper) throws ReflectiveOperationException {
        if (answer instanceof String) {
            return texts.get(0);
        }
        ClassLoader loader = answer.getClass().getClassLoader();
        if (is(answer, TOOL_RESULT)) {
            Object result = call(answer, "result");
            Object builder = answer.getClass().getMethod("builder").invoke(null);
            builder = builder.getClass().getMethod("isError", boolean.class).invoke(builder, (Boolean) call(answer, "isError"));
            if (result instanceof Map<?, ?> || result instanceof List<?>) {
                String text = (String) mapper.getClass().getMethod("writeValueAsString", Object.class).invoke(mapper, structured);
                builder = builder.getClass().getMethod("result", Object.class).invoke(builder, structured);
                builder = builder.getClass().getMethod("resultText", String.class).invoke(builder, text);
            } else {
                String text = texts.get(0);
                builder = builder.getClass().getMethod("result", Object.class).invoke(builder, result instanceof String ? text : result);
                builder = builder.getClass().getMethod("resultText", String.class).invoke(builder, text);
            }
            return builder.getClass().getMethod("build").invoke(builder);
        }
        int[] next = {0};
        if (is(answer, PACKAGE + "McpReadResourceResult")) {
            List<Object> contents = new ArrayList<>();
            for (Object each : (List<?>) call(answer, "contents")) {
                contents.add(rebuildContents(each, texts, next, loader));
            }
            return answer.getClass().getConstructor(List.class).newInstance(contents);
        }
        List<Object> messages = new ArrayList<>();
        Class<?> messageType = Class.forName(PACKAGE + "McpPromptMessage", false, loader);
        Class<?> roleType = Class.forName(PACKAGE + "McpRole", false, loader);
        Class<?> contentType = Class.forName(PACKAGE + "McpPromptContent", false, loader);
        for (Object message : (List<?>) call(answer, "messages")) {
            Object content = call(message, "content");
            Object rebuilt = content;
            if (is(content, PACKAGE + "McpTextContent")) {
                String text = texts.get(next[0]++);
                rebuilt = text.equals(call(content, "text")) ? content
                        : content.getClass().getConstructor(String.class).newInstance(text);
            } else if (is(content, PACKAGE + "McpEmbeddedResource")) {
                Object resource = call(content, "resource");
                Object again = rebuildContents(resource, texts, next, loader);
                rebuilt = again == resource ? content : content.getClass()
                        .getConstructor(Class.forName(PACKAGE + "McpResourceContents", false, loader)).newInstance(again);
            }
            messages.add(rebuilt == content ? message
                    : messageType.getConstructor(roleType, contentType).newInstance(call(message, "role"), rebuilt));
        }
        return answer.getClass().getConstructor(String.class, List.class).newInstance(call(answer, "description"), messages);
    }

    private static Object rebuildContents(Object contents, List<String> texts, int[] next, ClassLoader loader)
            throws ReflectiveOperationException {
        if (!is(contents, PACKAGE + "McpTextResourceContents")) {
            return contents;
        }
        String text = texts.get(next[0]++);
        if (text.equals(call(contents, "text"))) {
            return contents;
        }
        return contents.getClass().getConstructor(String.class, String.class, String.class)
                .newInstance(call(contents, "uri"), text, call(contents, "mimeType"));
    }

    private static boolean is(Object value, String type) {
        return value != null && value.getClass().getName().equals(type);
    }

    private static Object call(Object target, String name) throws ReflectiveOperationException {
        Method method = target.getClass().getMethod(name);
        method.trySetAccessible();
        return method.invoke(target);
    }

    private static Object callIfPresent(Object target, String name) throws ReflectiveOperationException {
        try {
            return call(target, name);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
