package dev.mcppolicy.agent.sdk;

import static dev.mcppolicy.agent.sdk.Reflection.find;

import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/** The SDK and Reactor objects the hooks answer with: denial results, the unknown-tool error, {@code Mono}s. */
public final class Results {
    private static final String SCHEMA = "io.modelcontextprotocol.spec.McpSchema";
    private static final String MONO = "reactor.core.publisher.Mono";
    private static final int INVALID_PARAMS = -32602;
    private static final int RESOURCE_NOT_FOUND = -32002;

    private Results() {
    }

    /** {@code Mono.just(CallToolResult.builder().addTextContent(text).isError(true).build())}, uniform across versions. */
    public static Object deniedResult(ClassLoader sdk, String text) throws ReflectiveOperationException {
        return monoJust(sdk, deniedCallToolResult(sdk, text));
    }

    /** {@code CallToolResult.builder().addTextContent(text).isError(true).build()}: a tool call's §5 denial. */
    public static Object deniedCallToolResult(ClassLoader sdk, String text) throws ReflectiveOperationException {
        Class<?> result = Class.forName(SCHEMA + "$CallToolResult", false, sdk);
        Object builder = result.getMethod("builder").invoke(null);
        builder = builder.getClass().getMethod("addTextContent", String.class).invoke(builder, text);
        builder = builder.getClass().getMethod("isError", Boolean.class).invoke(builder, Boolean.TRUE);
        return builder.getClass().getMethod("build").invoke(builder);
    }

    /**
     * A denied {@code resources/read} or {@code prompts/get} (SPEC §12): a JSON-RPC error, {@code McpError} code
     * -32602 with the §5 text as its message (SDK 0.10, which has no error builder: -32603, the text as message).
     */
    public static RuntimeException deniedError(ClassLoader sdk, String text) throws ReflectiveOperationException {
        return mcpError(sdk, INVALID_PARAMS, text, null);
    }

    /**
     * What the SDK answers for a resource it does not have ({@code -32002 Resource not found}), or a prompt
     * ({@code -32602 Invalid prompt name}): the answer to a hidden one.
     */
    public static RuntimeException notFoundError(ClassLoader sdk, boolean resource, String name) throws ReflectiveOperationException {
        return resource ? mcpError(sdk, RESOURCE_NOT_FOUND, "Resource not found", java.util.Map.of("uri", name))
                : mcpError(sdk, INVALID_PARAMS, "Invalid prompt name", "Prompt not found: " + name);
    }

    private static RuntimeException mcpError(ClassLoader sdk, int code, String message, Object data) throws ReflectiveOperationException {
        Class<?> mcpError = Class.forName("io.modelcontextprotocol.spec.McpError", false, sdk);
        Method builder = find(mcpError, "builder", int.class);
        if (builder == null) {
            return (RuntimeException) mcpError.getConstructor(Object.class).newInstance(message);
        }
        Object b = builder.invoke(null, code);
        b = b.getClass().getMethod("message", String.class).invoke(b, message);
        if (data != null) {
            b = b.getClass().getMethod("data", Object.class).invoke(b, data);
        }
        return (RuntimeException) b.getClass().getMethod("build").invoke(b);
    }

    /** {@code mono.doFinally(signal -> then.run())}: once the answer is sent, failed or cancelled. */
    public static Object monoFinally(Object mono, Runnable then) throws ReflectiveOperationException {
        Class<?> monoType = Class.forName(MONO, false, mono.getClass().getClassLoader());
        java.util.function.Consumer<Object> onFinally = signal -> then.run();
        return monoType.getMethod("doFinally", java.util.function.Consumer.class).invoke(mono, onFinally);
    }

    /**
     * What the SDK answers for a tool it does not have: {@code McpError} code -32602 "Unknown tool:
     * invalid_tool_name" (0.12+); 0.10 has no error builder and sends "Tool not found" as -32603.
     */
    public static Object unknownToolError(ClassLoader sdk, String tool) throws ReflectiveOperationException {
        Class<?> mcpError = Class.forName("io.modelcontextprotocol.spec.McpError", false, sdk);
        Throwable error;
        Method builder = find(mcpError, "builder", int.class);
        if (builder != null) {
            Object b = builder.invoke(null, INVALID_PARAMS);
            b = b.getClass().getMethod("message", String.class).invoke(b, "Unknown tool: invalid_tool_name");
            b = b.getClass().getMethod("data", Object.class).invoke(b, "Tool not found: " + tool);
            error = (Throwable) b.getClass().getMethod("build").invoke(b);
        } else {
            error = (Throwable) mcpError.getConstructor(Object.class).newInstance("Tool not found: " + tool);
        }
        Class<?> mono = Class.forName(MONO, false, sdk);
        return mono.getMethod("error", Throwable.class).invoke(null, error);
    }

    public static Object monoJust(ClassLoader sdk, Object value) throws ReflectiveOperationException {
        return Class.forName(MONO, false, sdk).getMethod("just", Object.class).invoke(null, value);
    }

    /** {@code Mono.empty()}: an answer that sends nothing (for a request the client cancelled). */
    public static Object monoEmpty(ClassLoader sdk) throws ReflectiveOperationException {
        return Class.forName(MONO, false, sdk).getMethod("empty").invoke(null);
    }

    /** {@code Mono.defer(supplier)}: decide when the caller subscribes, not when it builds the call. */
    public static Object monoDefer(ClassLoader sdk, Supplier<?> supplier) throws ReflectiveOperationException {
        return Class.forName(MONO, false, sdk).getMethod("defer", Supplier.class).invoke(null, supplier);
    }

    /** {@code Mono.error(error)}, from the SDK's Reactor. */
    public static Object failedMono(ClassLoader sdk, Throwable error) throws ReflectiveOperationException {
        return Class.forName(MONO, false, sdk).getMethod("error", Throwable.class).invoke(null, error);
    }

    /** {@code Mono.error(error)}, from the Reactor that {@code mono} comes from. */
    public static Object monoError(Object mono, Throwable error) throws ReflectiveOperationException {
        Class<?> monoType = Class.forName(MONO, false, mono.getClass().getClassLoader());
        return monoType.getMethod("error", Throwable.class).invoke(null, error);
    }

    /**
     * {@code Mono.fromFuture(future).flatMap(value -> then.apply(value))}: {@code then} runs when the
     * future completes, on the thread that completes it (see {@code PolicyHolder.whenLoaded}), and returns the {@code Mono} to go on with.
     */
    public static <T> Object monoAfter(ClassLoader sdk, CompletableFuture<T> future, Then<T> then)
            throws ReflectiveOperationException {
        Class<?> monoType = Class.forName(MONO, false, sdk);
        Object waiting = monoType.getMethod("fromFuture", CompletableFuture.class).invoke(null, future);
        return monoType.getMethod("flatMap", Function.class).invoke(waiting, going(then));
    }

    /**
     * {@code mono.map(Optional::of).defaultIfEmpty(Optional.empty()).onErrorReturn(Optional.of(failed)).flatMap(...)}:
     * {@code then} gets what {@code mono} answered ({@code null} for nothing, {@code failed} for an error) once it
     * answers, as part of the same chain, so {@code mono} reads the subscriber's Reactor context (issue 32: a WebFlux
     * principal); returns the {@code Mono} to go on with.
     */
    public static Object monoAfterAnswer(Object mono, Object failed, Then<Object> then) throws ReflectiveOperationException {
        Class<?> monoType = Class.forName(MONO, false, mono.getClass().getClassLoader());
        Function<Object, Object> present = Optional::of;
        Object optional = monoType.getMethod("map", Function.class).invoke(mono, present);
        optional = monoType.getMethod("defaultIfEmpty", Object.class).invoke(optional, Optional.empty());
        optional = monoType.getMethod("onErrorReturn", Object.class).invoke(optional, Optional.of(failed));
        Then<Object> unwrapped = value -> then.apply(((Optional<?>) value).orElse(null));
        return monoType.getMethod("flatMap", Function.class).invoke(optional, going(unwrapped));
    }

    /** {@code then} as the function of a {@code flatMap}: a checked throwable fails the {@code Mono}. */
    private static <T> Function<Object, Object> going(Then<T> then) {
        return value -> {
            @SuppressWarnings("unchecked")
            T typed = (T) value;
            try {
                return then.apply(typed);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        };
    }

    /**
     * {@code mono.doFinally(signal -> onCancel when CANCEL)}: the caller cancelled the request or closed the
     * session; runs once the cancel has reached everything upstream.
     */
    public static Object monoOnCancel(Object mono, Runnable onCancel) throws ReflectiveOperationException {
        Class<?> monoType = Class.forName(MONO, false, mono.getClass().getClassLoader());
        java.util.function.Consumer<Object> onFinally = signal -> {
            if (signal instanceof Enum<?> type && type.name().equals("CANCEL")) {
                onCancel.run();
            }
        };
        return monoType.getMethod("doFinally", java.util.function.Consumer.class).invoke(mono, onFinally);
    }

    /**
     * {@code exchange.progressNotification(new ProgressNotification(token, progress, null, message)).subscribe()}:
     * SDK 0.14+ (0.10 cannot send one); whether it was sent.
     */
    public static boolean sendProgress(Object exchange, Object token, double progress, String message) throws ReflectiveOperationException {
        Method send = null;
        for (Method method : exchange.getClass().getMethods()) {
            if (method.getName().equals("progressNotification") && method.getParameterCount() == 1) {
                send = method;
            }
        }
        if (send == null) {
            return false;
        }
        Class<?> notification = send.getParameterTypes()[0];
        for (java.lang.reflect.Constructor<?> constructor : notification.getConstructors()) {
            Class<?>[] types = constructor.getParameterTypes();
            if (types.length == 4 && types[1] == double.class && types[3] == String.class && types[0].isInstance(token)) {
                Object mono = send.invoke(exchange, constructor.newInstance(token, progress, null, message));
                mono.getClass().getMethod("subscribe").invoke(mono);
                return true;
            }
        }
        return false;
    }

    /** What {@link #monoAfter} goes on with: the {@code Mono} to continue with; a throwable fails it. */
    @FunctionalInterface
    public interface Then<T> {
        Object apply(T value) throws Throwable;
    }

    /** {@code mono.map(function)}. */
    public static Object monoMap(Object mono, Function<Object, Object> function) throws ReflectiveOperationException {
        Class<?> monoType = Class.forName(MONO, false, mono.getClass().getClassLoader());
        return monoType.getMethod("map", Function.class).invoke(mono, function);
    }
}
