package dev.mcppolicy.agent.instrumentation;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Which declared methods of a hooked class a hook applies to, decided from the class file alone
 * (access flags, name, descriptor): nothing is loaded or resolved to match.
 */
@FunctionalInterface
public interface MethodShape {
    String OBJECT = "Ljava/lang/Object;";
    String STRING = "Ljava/lang/String;";
    String MONO = "Lreactor/core/publisher/Mono;";

    boolean matches(int access, String name, String descriptor);

    /**
     * The body of the request-handler lambda a factory such as {@code toolsCallRequestHandler()}
     * returns: {@code private synthetic Mono lambda$toolsCallRequestHandler$N(exchangeOrContext, Object params)},
     * static or not depending on what the lambda captures. The number changes between releases, so it
     * is never matched; the shape selects exactly one method per factory in 0.10.0 to 2.1.0 (inner
     * lambdas take other arguments or return other types).
     */
    static MethodShape handlerLambda(String factory) {
        return handlerLambda(factory, MONO);
    }

    /** {@link #handlerLambda(String)} returning {@code returns} (a descriptor) instead of a {@code Mono}. */
    static MethodShape handlerLambda(String factory, String returns) {
        return new HandlerLambda("lambda$" + factory + "$", returns);
    }

    /**
     * A public instance method called {@code name} returning {@code returns}, taking {@code arguments}
     * arguments (one or more when negative) whose first is {@code firstArgument} (any reference when null).
     */
    static MethodShape publicMethod(String name, int arguments, String firstArgument, String returns) {
        return new PublicMethod(name, arguments, firstArgument, returns);
    }

    /**
     * An instance method called {@code name} with the access flag {@code access} ({@code ACC_PUBLIC} or
     * {@code ACC_PRIVATE}; 0 for package access: neither, nor {@code ACC_PROTECTED}), returning {@code returns}, taking exactly {@code arguments} arguments (zero or more)
     * whose first is {@code firstArgument} (any when null); never a synthetic or bridge method.
     */
    static MethodShape method(int access, String name, int arguments, String firstArgument, String returns) {
        return new Declared(access, name, arguments, firstArgument, returns);
    }

    /** Every method with code: for weaves that look for call sites inside. */
    static MethodShape anyMethod() {
        return new AnyMethod();
    }

    /** See {@link #anyMethod}; a class, not a lambda, as weaving spins none on a cold JVM. */
    record AnyMethod() implements MethodShape {
        @Override
        public boolean matches(int access, String name, String descriptor) {
            return true;
        }
    }

    /** See {@link #handlerLambda}. */
    record HandlerLambda(String prefix, String returns) implements MethodShape {
        private static final int PRIVATE_SYNTHETIC = Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC;

        @Override
        public boolean matches(int access, String name, String descriptor) {
            if ((access & PRIVATE_SYNTHETIC) != PRIVATE_SYNTHETIC || !name.startsWith(prefix)
                    || !Type.getReturnType(descriptor).getDescriptor().equals(returns)) {
                return false;
            }
            Type[] arguments = Type.getArgumentTypes(descriptor);
            return arguments.length == 2 && isReference(arguments[0]) && arguments[1].getDescriptor().equals(OBJECT);
        }
    }

    /** See {@link #publicMethod}. */
    record PublicMethod(String name, int arguments, String firstArgument, String returns) implements MethodShape {
        @Override
        public boolean matches(int access, String candidate, String descriptor) {
            if ((access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC)) != Opcodes.ACC_PUBLIC || !candidate.equals(name)
                    || !Type.getReturnType(descriptor).getDescriptor().equals(returns)) {
                return false;
            }
            Type[] types = Type.getArgumentTypes(descriptor);
            return types.length >= 1 && (arguments < 0 || types.length == arguments) && isReference(types[0])
                    && (firstArgument == null || types[0].getDescriptor().equals(firstArgument));
        }
    }

    /** See {@link #method}. */
    record Declared(int access, String name, int arguments, String firstArgument, String returns) implements MethodShape {
        private static final int EXCLUDED = Opcodes.ACC_STATIC | Opcodes.ACC_SYNTHETIC | Opcodes.ACC_BRIDGE;
        private static final int VISIBILITY = Opcodes.ACC_PUBLIC | Opcodes.ACC_PRIVATE | Opcodes.ACC_PROTECTED;

        @Override
        public boolean matches(int flags, String candidate, String descriptor) {
            boolean accessible = access == 0 ? (flags & VISIBILITY) == 0 : (flags & access) != 0;
            if (!accessible || (flags & EXCLUDED) != 0 || !candidate.equals(name)
                    || !Type.getReturnType(descriptor).getDescriptor().equals(returns)) {
                return false;
            }
            Type[] types = Type.getArgumentTypes(descriptor);
            return types.length == arguments && (firstArgument == null || types[0].getDescriptor().equals(firstArgument));
        }
    }

    static boolean isReference(Type type) {
        return type.getSort() == Type.OBJECT || type.getSort() == Type.ARRAY;
    }
}
