package dev.mcppolicy.agent.instrumentation;

import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The bytecode a hook puts into a matched method: one call of a {@code PolicyBridge} method. In a class whose
 * loader delegates to the system class loader (the app's class path, Spring Boot's and servlet containers'
 * loaders: {@link #reachesBridgeDirectly}) that is a plain {@code invokestatic} of the bridge. In any other class
 * it is {@code MethodHandle.invokeExact} on a dynamic constant ({@code ldc} of a {@code CONSTANT_Dynamic},
 * class files 55+) that the JVM resolves once per class with JDK bootstrap methods only:
 * {@code publicLookup().findStatic(getSystemClassLoader().loadClass("...PolicyBridge"), name, type)}, so such a
 * class names no agent type and resolves the bridge whatever its own class loader delegates to. Either way the
 * JIT sees a constant target, so the call inlines like a static one. Everything passes as {@code Object}; the
 * bridge returns {@code Object}, cast back to the type the woven code expects.
 *
 * <p>Written against ASM directly, without Byte Buddy's {@code Advice}: the shapes below are all
 * the agent needs, and not loading Byte Buddy saves an MCP server ~0.5 s of start-up (issue 3). None
 * adds a local variable, a member or an exception handler, so the class keeps its format and can be
 * retransformed; the only stack map frame added is a "same locals, one Object on the stack" frame
 * after the entry check, which leaves the method's own frames valid as they are.
 */
public abstract class Weave {
    /** An operand: the receiver ({@code null} in a static method). Non-negative operands are argument indexes. */
    public static final int THIS = -1;
    /**
     * An operand: a {@code MethodHandle} of the woven method itself (an {@code ldc} of a method-handle
     * constant, resolved once with the class's own access), so the bridge can run the method later,
     * e.g. once the policy is read. Its type is the method's own, with the receiver first unless static.
     */
    public static final int SELF = -2;

    /** The bridge's binary name; the class itself is never loaded here. */
    private static final String BRIDGE = "dev.mcppolicy.agent.bridge.PolicyBridge";
    private static final String BRIDGE_INTERNAL = BRIDGE.replace('.', '/');
    /** {@code ConstantBootstraps.invoke}: a dynamic constant that is the result of calling a method handle. */
    private static final Handle INVOKE = new Handle(Opcodes.H_INVOKESTATIC, "java/lang/invoke/ConstantBootstraps", "invoke",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;Ljava/lang/invoke/MethodHandle;"
                    + "[Ljava/lang/Object;)Ljava/lang/Object;", false);
    private static final String OBJECT = "java/lang/Object";

    final String bridgeMethod;
    final int[] operands;

    private Weave(String bridgeMethod, int[] operands) {
        this.bridgeMethod = bridgeMethod;
        this.operands = operands.clone();
    }

    /**
     * On entry, {@code bridgeMethod(operands...)}: {@code null} runs the method as it is; anything else is
     * returned at once and the body never runs.
     */
    public static Weave enterUnlessNull(String bridgeMethod, int... operands) {
        return new Weave(bridgeMethod, operands) {
            @Override
            MethodVisitor apply(MethodVisitor target, Method method, Runnable woven) {
                woven.run();
                return callOnEntry(target, method, true);
            }
        };
    }

    /** On entry, {@code bridgeMethod(operands...)}, whose result is dropped: the method always runs as it is. */
    public static Weave onEntry(String bridgeMethod, int... operands) {
        return new Weave(bridgeMethod, operands) {
            @Override
            MethodVisitor apply(MethodVisitor target, Method method, Runnable woven) {
                woven.run();
                return callOnEntry(target, method, false);
            }
        };
    }

    /**
     * A visitor that calls the bridge on entry, then with {@code returnUnlessNull} returns the result unless it is
     * {@code null}, else drops it. (No lambda: weaving runs on a cold JVM, where each one spun costs a millisecond.)
     */
    MethodVisitor callOnEntry(MethodVisitor target, Method method, boolean returnUnlessNull) {
        return new MethodVisitor(Opcodes.ASM9, target) {
            @Override
            public void visitCode() {
                super.visitCode();
                if (!method.direct()) {
                    mv.visitLdcInsn(bridgeHandle(bridgeMethod, operands.length));
                }
                callBridge(mv, method, 0);
                if (returnUnlessNull) {
                    Label run = new Label();
                    mv.visitInsn(Opcodes.DUP);
                    mv.visitJumpInsn(Opcodes.IFNULL, run);
                    castToReturnType(mv, method.descriptor());
                    mv.visitInsn(Opcodes.ARETURN);
                    mv.visitLabel(run);
                    mv.visitFrame(Opcodes.F_SAME1, 0, null, 1, new Object[] {OBJECT});
                }
                mv.visitInsn(Opcodes.POP);
            }

            @Override
            public void visitMaxs(int maxStack, int maxLocals) {
                super.visitMaxs(Math.max(maxStack, operands.length + 1), maxLocals);
            }
        };
    }

    /** Before every {@code areturn}: the value returned becomes {@code bridgeMethod(value, operands...)}. */
    public static Weave replaceReturn(String bridgeMethod, int... operands) {
        return new Weave(bridgeMethod, operands) {
            @Override
            MethodVisitor apply(MethodVisitor target, Method method, Runnable woven) {
                woven.run();
                return new MethodVisitor(Opcodes.ASM9, target) {
                    @Override
                    public void visitInsn(int opcode) {
                        if (opcode == Opcodes.ARETURN) {
                            returnThroughBridge(mv, method, bridgeMethod);
                        }
                        super.visitInsn(opcode);
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        super.visitMaxs(maxStack + operands.length + 1, maxLocals);
                    }
                };
            }
        };
    }

    /**
     * On entry, argument {@code argument} becomes {@code bridgeMethod(operands...)} (cast to its type), and before
     * every {@code areturn} the value returned becomes {@code returnBridge(value, operands...)}: for a Kotlin
     * {@code suspend} method, whose result comes either through its continuation (an argument, replaced by one that
     * passes the result through the bridge) or, when it did not suspend, as its return value.
     */
    public static Weave replaceArgumentAndReturn(String bridgeMethod, int argument, String returnBridge, int... operands) {
        return new Weave(bridgeMethod, operands) {
            @Override
            MethodVisitor apply(MethodVisitor target, Method method, Runnable woven) {
                woven.run();
                Type[] arguments = Type.getArgumentTypes(method.descriptor());
                if (!MethodShape.isReference(arguments[argument])) {
                    throw new IllegalStateException("argument " + argument + " of " + method.descriptor() + " is not a reference");
                }
                int slot = method.isStatic() ? 0 : 1;
                for (int i = 0; i < argument; i++) {
                    slot += arguments[i].getSize();
                }
                int argumentSlot = slot;
                return new MethodVisitor(Opcodes.ASM9, target) {
                    @Override
                    public void visitCode() {
                        super.visitCode();
                        if (!method.direct()) {
                            mv.visitLdcInsn(bridgeHandle(bridgeMethod, operands.length));
                        }
                        callBridge(mv, method, 0);
                        mv.visitTypeInsn(Opcodes.CHECKCAST, arguments[argument].getInternalName());
                        mv.visitVarInsn(Opcodes.ASTORE, argumentSlot);
                    }

                    @Override
                    public void visitInsn(int opcode) {
                        if (opcode == Opcodes.ARETURN) {
                            returnThroughBridge(mv, method, returnBridge);
                        }
                        super.visitInsn(opcode);
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        super.visitMaxs(maxStack + operands.length + 1, maxLocals);
                    }
                };
            }
        };
    }

    /** Before an {@code areturn}: the value on the stack becomes {@code bridge(value, operands...)}, cast back to the return type. */
    void returnThroughBridge(MethodVisitor mv, Method method, String bridge) {
        if (!method.direct()) {
            mv.visitLdcInsn(bridgeHandle(bridge, operands.length + 1));
            mv.visitInsn(Opcodes.SWAP);
        }
        callBridge(mv, method, 1, bridge);
        castToReturnType(mv, method.descriptor());
    }

    /**
     * After every call to {@code owner.name(Object)} returning a reference: the value returned becomes
     * {@code bridgeMethod(value, argument)}, where {@code argument} is the one the call was made with
     * (kept by a {@code dup_x1} before the call).
     */
    public static Weave afterCall(String owner, String name, String bridgeMethod) {
        return atCallSites(owner, name, bridgeMethod, true);
    }

    /**
     * Every call to {@code owner.name(Object)} (an instance method taking one reference and returning
     * one) becomes {@code bridgeMethod(receiver, argument)}, whose result is cast to what the call
     * returned: the bridge makes the call itself, around whatever it must do.
     */
    public static Weave replaceCall(String owner, String name, String bridgeMethod) {
        return atCallSites(owner, name, bridgeMethod, false);
    }

    /**
     * After every call to {@code owner.name(Object)} returning a reference: the value returned becomes
     * {@code bridgeMethod(value, argument, this)}, {@code this} being the woven method's receiver ({@code null} in a
     * static method): for a bridge that must know whose call it was.
     */
    public static Weave afterCallWithThis(String owner, String name, String bridgeMethod) {
        return new Weave(bridgeMethod, new int[0]) {
            @Override
            MethodVisitor apply(MethodVisitor target, Method method, Runnable woven) {
                return new MethodVisitor(Opcodes.ASM9, target) {
                    @Override
                    public void visitMethodInsn(int opcode, String callOwner, String callName, String callDescriptor,
                            boolean isInterface) {
                        if (opcode == Opcodes.INVOKESTATIC || opcode == Opcodes.INVOKESPECIAL || !callOwner.equals(owner)
                                || !callName.equals(name) || !takesOneReference(callDescriptor)) {
                            super.visitMethodInsn(opcode, callOwner, callName, callDescriptor, isInterface);
                            return;
                        }
                        woven.run();
                        // receiver, argument -> argument, result
                        mv.visitInsn(Opcodes.DUP_X1);
                        super.visitMethodInsn(opcode, callOwner, callName, callDescriptor, isInterface);
                        if (!method.direct()) {
                            // argument, result -> handle, argument, result
                            mv.visitLdcInsn(bridgeHandle(bridgeMethod, 3));
                            mv.visitInsn(Opcodes.DUP_X2);
                            mv.visitInsn(Opcodes.POP);
                        }
                        // argument, result -> result, argument, this
                        mv.visitInsn(Opcodes.SWAP);
                        if (method.isStatic()) {
                            mv.visitInsn(Opcodes.ACONST_NULL);
                        } else {
                            mv.visitVarInsn(Opcodes.ALOAD, 0);
                        }
                        invokeBridge(mv, method.direct(), 3);
                        castToReturnType(mv, callDescriptor);
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        super.visitMaxs(maxStack + 3, maxLocals);
                    }
                };
            }
        };
    }

    /** {@link #afterCall} ({@code keepCall}) or {@link #replaceCall}: the two differ only in whether the call stays. */
    private static Weave atCallSites(String owner, String name, String bridgeMethod, boolean keepCall) {
        return new Weave(bridgeMethod, new int[0]) {
            @Override
            MethodVisitor apply(MethodVisitor target, Method method, Runnable woven) {
                return new MethodVisitor(Opcodes.ASM9, target) {
                    @Override
                    public void visitMethodInsn(int opcode, String callOwner, String callName, String callDescriptor,
                            boolean isInterface) {
                        boolean hooked = opcode != Opcodes.INVOKESTATIC && opcode != Opcodes.INVOKESPECIAL
                                && callOwner.equals(owner) && callName.equals(name) && takesOneReference(callDescriptor);
                        if (!hooked) {
                            super.visitMethodInsn(opcode, callOwner, callName, callDescriptor, isInterface);
                            return;
                        }
                        woven.run();
                        if (keepCall) {
                            // receiver, argument -> argument, result
                            mv.visitInsn(Opcodes.DUP_X1);
                            super.visitMethodInsn(opcode, callOwner, callName, callDescriptor, isInterface);
                        }
                        if (!method.direct()) {
                            // a, b -> handle, a, b
                            mv.visitLdcInsn(bridgeHandle(bridgeMethod, 2));
                            mv.visitInsn(Opcodes.DUP_X2);
                            mv.visitInsn(Opcodes.POP);
                        }
                        if (keepCall) {
                            // argument, result -> result, argument
                            mv.visitInsn(Opcodes.SWAP);
                        }
                        invokeBridge(mv, method.direct(), 2);
                        castToReturnType(mv, callDescriptor);
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        super.visitMaxs(maxStack + 2, maxLocals);
                    }
                };
            }
        };
    }

    private static boolean takesOneReference(String descriptor) {
        Type[] arguments = Type.getArgumentTypes(descriptor);
        int returned = Type.getReturnType(descriptor).getSort();
        return arguments.length == 1 && MethodShape.isReference(arguments[0])
                && (returned == Type.OBJECT || returned == Type.ARRAY);
    }

    /**
     * Wraps the visitor of a matched method's code; {@code woven} is run once per place the weave
     * changed (the method itself, or each call site).
     */
    abstract MethodVisitor apply(MethodVisitor target, Method method, Runnable woven);

    /**
     * The method being woven: its class's internal name, access flags, name and descriptor, and whether its class
     * calls the bridge {@code direct}ly (see {@link #reachesBridgeDirectly}).
     */
    record Method(String owner, int access, String name, String descriptor, boolean direct) {
        boolean isStatic() {
            return (access & Opcodes.ACC_STATIC) != 0;
        }

        /** The method-handle constant of this method: {@code invokestatic}, {@code invokespecial} (private) or {@code invokevirtual}. */
        Handle handle() {
            int kind = isStatic() ? Opcodes.H_INVOKESTATIC
                    : (access & Opcodes.ACC_PRIVATE) != 0 ? Opcodes.H_INVOKESPECIAL : Opcodes.H_INVOKEVIRTUAL;
            return new Handle(kind, owner, name, descriptor, false);
        }
    }

    /**
     * Pushes the operands and calls the bridge; its first {@code stacked} arguments (after the bridge's handle,
     * unless the call is direct) are already on the stack.
     */
    void callBridge(MethodVisitor mv, Method method, int stacked) {
        callBridge(mv, method, stacked, bridgeMethod);
    }

    /** {@link #callBridge(MethodVisitor, Method, int)} of the bridge method {@code bridge} (a weave with two). */
    void callBridge(MethodVisitor mv, Method method, int stacked, String bridge) {
        boolean isStatic = method.isStatic();
        String descriptor = method.descriptor();
        Type[] arguments = Type.getArgumentTypes(descriptor);
        for (int operand : operands) {
            if (operand == SELF) {
                mv.visitLdcInsn(method.handle());
                continue;
            }
            if (operand == THIS) {
                if (isStatic) {
                    mv.visitInsn(Opcodes.ACONST_NULL);
                } else {
                    mv.visitVarInsn(Opcodes.ALOAD, 0);
                }
                continue;
            }
            Type type = arguments[operand];
            if (!MethodShape.isReference(type)) {
                throw new IllegalStateException("argument " + operand + " of " + descriptor + " is not a reference");
            }
            int slot = isStatic ? 0 : 1;
            for (int i = 0; i < operand; i++) {
                slot += arguments[i].getSize();
            }
            mv.visitVarInsn(Opcodes.ALOAD, slot);
        }
        invokeBridge(mv, method.direct(), stacked + operands.length, bridge);
    }

    /** Calls the bridge method with {@code arity} arguments, already on the stack (after its handle, unless {@code direct}). */
    void invokeBridge(MethodVisitor mv, boolean direct, int arity) {
        invokeBridge(mv, direct, arity, bridgeMethod);
    }

    private static void invokeBridge(MethodVisitor mv, boolean direct, int arity, String bridge) {
        if (direct) {
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE_INTERNAL, bridge, bridgeDescriptor(arity), false);
        } else {
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, "java/lang/invoke/MethodHandle", "invokeExact", bridgeDescriptor(arity), false);
        }
    }

    /**
     * Whether classes of {@code loader} can call the bridge with a plain {@code invokestatic}: the system class loader
     * (which defines the bridge, {@code BridgeWiring}) is {@code loader} or one of its parents, so resolving the
     * bridge's name from such a class finds the system class loader's bridge (the app's own class path, Spring Boot's
     * and servlet containers' loaders). Any other loader (one that does not delegate to it: OSGi, JBoss Modules, an
     * isolated loader) gets the dynamic constant, which names the system class loader itself. The direct call spins
     * no method-handle forms: resolving the dynamic constants cost a cold JVM ~50 of them (issue 16).
     */
    public static boolean reachesBridgeDirectly(ClassLoader loader) {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        for (ClassLoader at = loader; at != null; at = at.getParent()) {
            if (at == system) {
                return true;
            }
        }
        return false;
    }

    private static String bridgeDescriptor(int arity) {
        StringBuilder descriptor = new StringBuilder("(");
        for (int i = 0; i < arity; i++) {
            descriptor.append('L').append(OBJECT).append(';');
        }
        return descriptor.append(")L").append(OBJECT).append(';').toString();
    }

    /** {@code MethodHandles.publicLookup().findStatic(bridge class, method, (Object x arity)Object)}, as a dynamic constant. */
    static ConstantDynamic bridgeHandle(String method, int arity) {
        ConstantDynamic systemLoader = new ConstantDynamic("systemLoader", "Ljava/lang/ClassLoader;", INVOKE,
                new Handle(Opcodes.H_INVOKESTATIC, "java/lang/ClassLoader", "getSystemClassLoader", "()Ljava/lang/ClassLoader;", false));
        ConstantDynamic bridge = new ConstantDynamic("bridge", "Ljava/lang/Class;", INVOKE,
                new Handle(Opcodes.H_INVOKEVIRTUAL, "java/lang/ClassLoader", "loadClass", "(Ljava/lang/String;)Ljava/lang/Class;", false),
                systemLoader, BRIDGE);
        ConstantDynamic lookup = new ConstantDynamic("publicLookup", "Ljava/lang/invoke/MethodHandles$Lookup;", INVOKE,
                new Handle(Opcodes.H_INVOKESTATIC, "java/lang/invoke/MethodHandles", "publicLookup",
                        "()Ljava/lang/invoke/MethodHandles$Lookup;", false));
        return new ConstantDynamic(method, "Ljava/lang/invoke/MethodHandle;", INVOKE,
                new Handle(Opcodes.H_INVOKEVIRTUAL, "java/lang/invoke/MethodHandles$Lookup", "findStatic",
                        "(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;", false),
                lookup, bridge, method, Type.getMethodType(bridgeDescriptor(arity)));
    }

    static void castToReturnType(MethodVisitor mv, String descriptor) {
        String returned = Type.getReturnType(descriptor).getInternalName();
        if (!returned.equals(OBJECT)) {
            mv.visitTypeInsn(Opcodes.CHECKCAST, returned);
        }
    }
}
