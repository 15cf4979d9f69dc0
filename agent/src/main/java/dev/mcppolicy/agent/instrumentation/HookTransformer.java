package dev.mcppolicy.agent.instrumentation;

import dev.mcppolicy.agent.Diagnostics;
import dev.mcppolicy.agent.status.StartupSummary;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Weaves the hooks into the SDK classes, one ASM pass per hooked class: methods no hook selects are
 * copied as they are, byte for byte. After each class it tells the startup summary what was hooked,
 * which WARNs loudly about a hook that found no method to apply to. A throwable escapes to the caller, which reports it; the
 * class then loads unchanged.
 */
public final class HookTransformer implements ClassFileTransformer {
    private final Map<String, TypeInstrumentation> byInternalName = new java.util.concurrent.ConcurrentHashMap<>();
    private final StartupSummary summary;
    /** Hooked class names of the stacks set up on first sight, by stack; a stack's entries go once it is set up. */
    private final Map<String, String> deferred;
    private final Deferred stacks;

    public HookTransformer(List<TypeInstrumentation> instrumentations, StartupSummary summary) {
        this(instrumentations, Map.of(), null, summary);
    }

    /**
     * @param deferred the hooked class names of stacks set up only when one of their classes loads, and their stack
     * @param stacks sets a deferred stack up: its hooks in the bridge and its instrumentations
     */
    public HookTransformer(List<TypeInstrumentation> instrumentations, Map<String, String> deferred, Deferred stacks, StartupSummary summary) {
        this.summary = summary;
        this.deferred = new java.util.concurrent.ConcurrentHashMap<>(deferred);
        this.stacks = stacks;
        for (TypeInstrumentation instrumentation : instrumentations) {
            byInternalName.put(instrumentation.internalName(), instrumentation);
        }
    }

    /**
     * Sets up a stack the first time a class it hooks loads, so a JVM that never loads one pays nothing for it (no
     * class of its hooks or instrumentations is loaded): its hooks are in the bridge before the class it is asked for
     * is woven, so before that class runs.
     */
    public interface Deferred {
        List<TypeInstrumentation> load(String stack);
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        TypeInstrumentation instrumentation = byInternalName.get(className);
        if (instrumentation == null && className != null && deferred.containsKey(className)) {
            instrumentation = setUp(className);
        }
        if (instrumentation == null) {
            return null;
        }
        List<TypeInstrumentation.Hook> hooks = instrumentation.hooks();
        ClassReader reader = new ClassReader(classfileBuffer);
        ClassWriter writer = new ClassWriter(reader, 0);
        Weaver weaver = new Weaver(writer, hooks, Weave.reachesBridgeDirectly(loader));
        reader.accept(weaver, 0);
        report(className.replace('/', '.'), instrumentation, hooks, weaver.matched, protectionDomain);
        for (int count : weaver.matched) {
            if (count > 0) {
                return writer.toByteArray();
            }
        }
        return null;
    }

    /** The deferred stack of {@code className}, set up now unless another thread did; its instrumentation of that class. */
    private synchronized TypeInstrumentation setUp(String className) {
        String stack = deferred.get(className);
        if (stack != null) {
            for (TypeInstrumentation instrumentation : stacks.load(stack)) {
                byInternalName.put(instrumentation.internalName(), instrumentation);
            }
            for (java.util.Iterator<String> stacksLeft = deferred.values().iterator(); stacksLeft.hasNext();) {
                if (stacksLeft.next().equals(stack)) {
                    stacksLeft.remove();
                }
            }
        }
        return byInternalName.get(className);
    }

    private void report(String type, TypeInstrumentation instrumentation, List<TypeInstrumentation.Hook> hooks, int[] matched,
            ProtectionDomain domain) {
        List<String> applied = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < hooks.size(); i++) {
            TypeInstrumentation.Hook hook = hooks.get(i);
            if (matched[i] == 0 && hook.expected() == 0) {
                Diagnostics.debug(type + ": nothing to hook for " + hook.what() + " in this version");
            } else if (matched[i] < hook.expected()) {
                missing.add(hook.what());
            } else if (matched[i] > hook.most()) {
                Diagnostics.warn("instrumented MORE than expected: " + type + " " + SdkVersion.of(domain) + ": " + matched[i]
                        + " places for " + hook.what() + " where " + instrumentation.expectedShape() + " has " + hook.most()
                        + "; a call may be decided and counted twice");
                applied.add(hook.what());
            } else {
                applied.add(hook.what());
            }
        }
        if (!applied.isEmpty() || !missing.isEmpty()) {
            summary.instrumented(type, SdkVersion.of(domain), applied, missing, instrumentation.announces(),
                    instrumentation.expectedShape());
        }
    }

    /** Hands each method to the first hook whose shape it has, counting the places woven per hook. */
    private static final class Weaver extends ClassVisitor {
        private final List<TypeInstrumentation.Hook> hooks;
        final int[] matched;
        private final boolean direct;
        private String owner;

        Weaver(ClassVisitor next, List<TypeInstrumentation.Hook> hooks, boolean direct) {
            super(Opcodes.ASM9, next);
            this.hooks = hooks;
            this.direct = direct;
            this.matched = new int[hooks.size()];
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            if ((version & 0xFFFF) < Opcodes.V11) {
                // the weaves load the bridge through dynamic constants (Weave); every supported SDK is Java 17 bytecode
                throw new IllegalStateException("class file version " + (version & 0xFFFF) + " predates dynamic constants (Java 11)");
            }
            owner = name;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor target = super.visitMethod(access, name, descriptor, signature, exceptions);
            if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
                return target;
            }
            for (int i = 0; i < hooks.size(); i++) {
                TypeInstrumentation.Hook hook = hooks.get(i);
                if (hook.methods().matches(access, name, descriptor)) {
                    return hook.weave().apply(target, new Weave.Method(owner, access, name, descriptor, direct), new Tally(matched, i));
                }
            }
            return target;
        }
    }

    /** Counts a woven method for its hook; a named class, as weaving spins no lambda on a cold JVM. */
    private static final class Tally implements Runnable {
        private final int[] matched;
        private final int index;

        Tally(int[] matched, int index) {
            this.matched = matched;
            this.index = index;
        }

        @Override
        public void run() {
            matched[index]++;
        }
    }
}
