package dev.mcppolicy.agent.instrumentation;

import static dev.mcppolicy.agent.instrumentation.WovenClasses.bytes;
import static dev.mcppolicy.agent.instrumentation.WovenClasses.internalName;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.canary.Canary;
import dev.mcppolicy.agent.canary.CanaryTarget;
import dev.mcppolicy.agent.status.StartupSummary;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * An attach retransforms MCP classes that are already loaded, and retransformation may change method
 * bodies only: each weave must leave the class's fields, methods, their modifiers, its supertypes and its
 * modifiers exactly as they were (AttachIT proves it on the real SDK classes; this proves it per weave).
 */
class WeavesAddNoMembersTest {
    @Test
    void everyWeaveChangesMethodBodiesOnly() {
        assertSameShape(HookTransformerTest.StatefulServer.class, new McpAsyncServerInstrumentation());
        assertSameShape(HookTransformerTest.StatelessServer.class, new McpStatelessAsyncServerInstrumentation());
        assertSameShape(HookTransformerTest.Client.class, new McpAsyncClientInstrumentation());
        assertSameShape(HookTransformerTest.StdioServerSession.class,
                new McpStdioTransportInstrumentation(internalName(HookTransformerTest.StdioServerSession.class)));
        assertSameShape(HookTransformerTest.StdioClient.class,
                new McpStdioTransportInstrumentation(internalName(HookTransformerTest.StdioClient.class)));
        assertSameShape(CanaryTarget.class, Canary.instrumentation());
    }

    private static void assertSameShape(Class<?> sample, TypeInstrumentation instrumentation) {
        TypeInstrumentation named = new TypeInstrumentation() {
            @Override
            public String internalName() {
                return WovenClasses.internalName(sample);
            }

            @Override
            public List<Hook> hooks() {
                return instrumentation.hooks();
            }
        };
        byte[] original = bytes(sample);
        byte[] woven = new HookTransformer(List.of(named), new StartupSummary()).transform(null, null, internalName(sample), null, null,
                original);
        assertThat(woven).as(sample.getName() + " is woven").isNotNull().isNotEqualTo(original);
        assertThat(shape(woven)).as(sample.getName()).isEqualTo(shape(original));
    }

    /** The class's declaration, fields and methods: what retransformation must not change. */
    private static List<String> shape(byte[] bytes) {
        List<String> shape = new ArrayList<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                shape.add("class " + access + " " + name + " extends " + superName + " implements " + String.join(",", interfaces));
            }

            @Override
            public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
                shape.add("field " + access + " " + name + descriptor);
                return null;
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                shape.add("method " + access + " " + name + descriptor);
                return null;
            }
        }, ClassReader.SKIP_CODE);
        return shape;
    }
}
