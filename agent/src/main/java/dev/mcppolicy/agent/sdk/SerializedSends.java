package dev.mcppolicy.agent.sdk;

import dev.mcppolicy.agent.Diagnostics;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;

/**
 * Emission onto the outbound sink of an SDK stdio transport before 2.1.0, made safe for many threads.
 * The SDK calls {@code sink.tryEmitNext(message)} from whichever thread answers (the inbound thread for
 * a denial, a worker for a tool's result); Reactor's serialized sink refuses a second thread with
 * {@code FAIL_NON_SERIALIZED} and the SDK drops the message. Here every woven send takes the sink's
 * monitor first, so sends never meet each other; an emitter the weave does not cover (the SDK completing
 * the sink while closing) can still collide, and then the send is retried for up to 100 ms, as 2.1.0's
 * {@code busyLooping(100 ms)} does. The monitor is held only while the message is queued, never while it
 * is written (the SDK's outbound thread writes), so a waiting thread waits microseconds, and no thread
 * is added. What the SDK does with a result that still fails is unchanged.
 */
public final class SerializedSends {
    static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** {@code Sinks.Many.tryEmitNext(Object)} as {@code (Object, Object) Object}, per sink class. */
    private static final ClassValue<MethodHandle> TRY_EMIT_NEXT = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> sinkType) {
            try {
                ClassLoader reactor = sinkType.getClassLoader();
                Class<?> many = Class.forName("reactor.core.publisher.Sinks$Many", false, reactor);
                Class<?> result = Class.forName("reactor.core.publisher.Sinks$EmitResult", false, reactor);
                return MethodHandles.publicLookup().findVirtual(many, "tryEmitNext", MethodType.methodType(result, Object.class))
                        .asType(MethodType.methodType(Object.class, Object.class, Object.class));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("no Sinks.Many.tryEmitNext for " + sinkType.getName(), e);
            }
        }
    };

    private SerializedSends() {
    }

    /**
     * {@code sink.tryEmitNext(message)}, serialized with every other send on {@code sink}; its
     * {@code EmitResult}. Throws what {@code tryEmitNext} throws, unchanged.
     */
    public static Object emit(Object sink, Object message) {
        MethodHandle tryEmitNext;
        try {
            tryEmitNext = TRY_EMIT_NEXT.get(sink.getClass());
        } catch (RuntimeException | LinkageError e) {
            Diagnostics.adviceError("stdio send (the message is not sent)", e);
            throw e;
        }
        synchronized (sink) {
            Object result = tryEmitNext(tryEmitNext, sink, message);
            if (isNonSerialized(result)) {
                long deadline = System.nanoTime() + RETRY_NANOS;
                do {
                    Thread.onSpinWait();
                    result = tryEmitNext(tryEmitNext, sink, message);
                } while (isNonSerialized(result) && System.nanoTime() - deadline < 0);
            }
            return result;
        }
    }

    private static Object tryEmitNext(MethodHandle tryEmitNext, Object sink, Object message) {
        try {
            return (Object) tryEmitNext.invokeExact(sink, message);
        } catch (Throwable t) {
            return rethrow(t);
        }
    }

    /** Throws {@code t} unchanged, checked or not: the SDK sees what its own call would have thrown. */
    @SuppressWarnings("unchecked")
    private static <T extends Throwable> Object rethrow(Throwable t) throws T {
        throw (T) t;
    }

    private static boolean isNonSerialized(Object result) {
        return result instanceof Enum<?> e && e.name().equals("FAIL_NON_SERIALIZED");
    }
}
