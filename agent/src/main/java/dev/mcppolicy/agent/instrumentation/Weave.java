package dev.mcppolicy.agent.instrumentation;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The bytecode a hook puts into a matched method: one static call into
 * {@code dev.mcppolicy.agent.bootstrap.PolicyBridge}, which is on the boot class path and so
 * resolves from any class loader. Everything passes as {@code Object}; the bridge returns
 * {@code Object}, cast back to the method's return type.
 *
 * <p>Written against ASM directly, without Byte Buddy's {@code Advice}: the two shapes below are all the
 * agent needs, and not loading Byte Buddy saves an MCP server ~0.5 s of start-up (issue 3). Neither
 * adds a local variable, a member or an exception handler, so the class keeps its format and can be
 * retransformed; the only stack map frame added is a "same locals, one Object on the stack" frame
 * after the entry check, which leaves the method's own frames valid as they are.
 */
public abstract class Weave {
    /** An operand: the receiver ({@code null} in a static method). Non-negative operands are argument indexes. */
    public static final int THIS = -1;

    private static final String BRIDGE = "dev/mcppolicy/agent/bootstrap/PolicyBridge";
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
            MethodVisitor apply(MethodVisitor target, int access, String descriptor, Runnable woven) {
                woven.run();
                return new MethodVisitor(Opcodes.ASM9, target) {
                    @Override
                    public void visitCode() {
                        super.visitCode();
                        callBridge(mv, access, descriptor, 0);
                        Label run = new Label();
                        mv.visitInsn(Opcodes.DUP);
                        mv.visitJumpInsn(Opcodes.IFNULL, run);
                        castToReturnType(mv, descriptor);
                        mv.visitInsn(Opcodes.ARETURN);
                        mv.visitLabel(run);
                        mv.visitFrame(Opcodes.F_SAME1, 0, null, 1, new Object[] {OBJECT});
                        mv.visitInsn(Opcodes.POP);
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        super.visitMaxs(Math.max(maxStack, Math.max(2, operands.length)), maxLocals);
                    }
                };
            }
        };
    }

    /** Before every {@code areturn}: the value returned becomes {@code bridgeMethod(value, operands...)}. */
    public static Weave replaceReturn(String bridgeMethod, int... operands) {
        return new Weave(bridgeMethod, operands) {
            @Override
            MethodVisitor apply(MethodVisitor target, int access, String descriptor, Runnable woven) {
                woven.run();
                return new MethodVisitor(Opcodes.ASM9, target) {
                    @Override
                    public void visitInsn(int opcode) {
                        if (opcode == Opcodes.ARETURN) {
                            callBridge(mv, access, descriptor, 1);
                            castToReturnType(mv, descriptor);
                        }
                        super.visitInsn(opcode);
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        super.visitMaxs(maxStack + operands.length, maxLocals);
                    }
                };
            }
        };
    }

    /**
     * After every call to {@code owner.name(Object)} returning a reference: the value returned becomes
     * {@code bridgeMethod(value, argument)}, where {@code argument} is the one the call was made with
     * (kept by a {@code dup_x1} before the call).
     */
    public static Weave afterCall(String owner, String name, String bridgeMethod) {
        return new Weave(bridgeMethod, new int[0]) {
            @Override
            MethodVisitor apply(MethodVisitor target, int access, String descriptor, Runnable woven) {
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
                        mv.visitInsn(Opcodes.DUP_X1);
                        super.visitMethodInsn(opcode, callOwner, callName, callDescriptor, isInterface);
                        mv.visitInsn(Opcodes.SWAP);
                        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, bridgeMethod,
                                "(L" + OBJECT + ";L" + OBJECT + ";)L" + OBJECT + ";", false);
                        castToReturnType(mv, callDescriptor);
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        super.visitMaxs(maxStack + 1, maxLocals);
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
    abstract MethodVisitor apply(MethodVisitor target, int access, String descriptor, Runnable woven);

    /** Pushes the operands and calls the bridge, whose first {@code stacked} arguments are already on the stack. */
    void callBridge(MethodVisitor mv, int access, String descriptor, int stacked) {
        boolean isStatic = (access & Opcodes.ACC_STATIC) != 0;
        Type[] arguments = Type.getArgumentTypes(descriptor);
        for (int operand : operands) {
            if (operand == THIS) {
                if (isStatic) {
                    mv.visitInsn(Opcodes.ACONST_NULL);
                } else {
                    mv.visitVarInsn(Opcodes.ALOAD, 0);
                }
                continue;
            }
            Type type = arguments[operand];
            if (type.getSort() != Type.OBJECT && type.getSort() != Type.ARRAY) {
                throw new IllegalStateException("argument " + operand + " of " + descriptor + " is not a reference");
            }
            int slot = isStatic ? 0 : 1;
            for (int i = 0; i < operand; i++) {
                slot += arguments[i].getSize();
            }
            mv.visitVarInsn(Opcodes.ALOAD, slot);
        }
        StringBuilder bridgeDescriptor = new StringBuilder("(");
        for (int i = 0; i < stacked + operands.length; i++) {
            bridgeDescriptor.append('L').append(OBJECT).append(';');
        }
        bridgeDescriptor.append(")L").append(OBJECT).append(';');
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, bridgeMethod, bridgeDescriptor.toString(), false);
    }

    static void castToReturnType(MethodVisitor mv, String descriptor) {
        String returned = Type.getReturnType(descriptor).getInternalName();
        if (!returned.equals(OBJECT)) {
            mv.visitTypeInsn(Opcodes.CHECKCAST, returned);
        }
    }
}
