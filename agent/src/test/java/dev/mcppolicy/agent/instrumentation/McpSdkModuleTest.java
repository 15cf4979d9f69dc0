package dev.mcppolicy.agent.instrumentation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.agent.HookedTypes;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

class McpSdkModuleTest {
    @Test
    void premainFilterKnowsEveryHookedType() {
        Set<String> declared = new TreeSet<>();
        for (TypeInstrumentation instrumentation : McpSdkModule.instrumentations(true)) {
            declared.add(instrumentation.internalName());
        }
        for (TypeInstrumentation instrumentation : LangChain4jModule.instrumentations()) {
            declared.add(instrumentation.internalName());
        }
        for (TypeInstrumentation instrumentation : ModernSdkModule.instrumentations()) {
            declared.add(instrumentation.internalName());
        }
        java.util.Map<String, String> deferred = new java.util.HashMap<>();
        for (String stack : List.of(HookInstaller.QUARKUS, HookInstaller.KOTLIN)) {
            for (TypeInstrumentation instrumentation : HookInstaller.instrumentations(stack)) {
                declared.add(instrumentation.internalName());
                deferred.put(instrumentation.internalName(), stack);
            }
        }
        assertThat(deferred).as("the deferred stacks' classes, each under its stack").isEqualTo(HookInstaller.DEFERRED);
        assertThat(QuarkusMcpModule.instrumentations()).extracting(TypeInstrumentation::internalName)
                .allMatch(name -> HookInstaller.QUARKUS.equals(HookInstaller.DEFERRED.get(name)));
        assertThat(KotlinSdkModule.instrumentations()).extracting(TypeInstrumentation::internalName)
                .allMatch(name -> HookInstaller.KOTLIN.equals(HookInstaller.DEFERRED.get(name)));
        assertThat(declared).isEqualTo(new TreeSet<>(HookedTypes.INTERNAL_NAMES));
    }

    /** Access 0 is package access (the Quarkus MCP server's {@code toolsCall}): neither public, private nor protected. */
    @Test
    void packageAccessShapeMatchesOnlyPackagePrivateMethods() {
        String descriptor = "(Lio/vertx/core/json/JsonObject;Ljava/lang/Object;)Lio/vertx/core/Future;";
        MethodShape shape = MethodShape.method(0, "toolsCall", 2, "Lio/vertx/core/json/JsonObject;", "Lio/vertx/core/Future;");
        assertThat(shape.matches(0, "toolsCall", descriptor)).isTrue();
        assertThat(shape.matches(Opcodes.ACC_FINAL, "toolsCall", descriptor)).isTrue();
        assertThat(shape.matches(Opcodes.ACC_PUBLIC, "toolsCall", descriptor)).isFalse();
        assertThat(shape.matches(Opcodes.ACC_PRIVATE, "toolsCall", descriptor)).isFalse();
        assertThat(shape.matches(Opcodes.ACC_PROTECTED, "toolsCall", descriptor)).isFalse();
        assertThat(shape.matches(Opcodes.ACC_STATIC, "toolsCall", descriptor)).isFalse();
        assertThat(shape.matches(0, "toolsList", descriptor)).isFalse();
        assertThat(shape.matches(0, "toolsCall", "(Lio/vertx/core/json/JsonObject;)Lio/vertx/core/Future;")).isFalse();
    }

    @Test
    void handlerLambdaShapeWantsTheWholeShapeNotJustTheName() throws IOException {
        MethodShape shape = MethodShape.handlerLambda("toolsCallRequestHandler");
        List<String> named = new ArrayList<>();
        List<String> matched = new ArrayList<>();
        new ClassReader(bytesOf(LambdaShapes.class)).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                if (name.startsWith("lambda$toolsCallRequestHandler$")) {
                    named.add(name + descriptor);
                }
                if (shape.matches(access, name, descriptor)) {
                    matched.add(name + descriptor);
                }
                return null;
            }
        }, ClassReader.SKIP_CODE);
        // javac names both lambdas below lambda$toolsCallRequestHandler$N, as in the SDK; neither returns a
        // Mono, so neither may be taken for the dispatch point
        assertThat(named).hasSize(2);
        assertThat(matched).isEmpty();
    }

    @Test
    void publicMethodShapeChecksAccessArgumentsAndReturnType() {
        MethodShape listTools = MethodShape.publicMethod("listTools", -1, MethodShape.STRING, MethodShape.MONO);
        String mono = MethodShape.MONO;
        assertThat(listTools.matches(Opcodes.ACC_PUBLIC, "listTools", "(Ljava/lang/String;)" + mono)).isTrue();
        assertThat(listTools.matches(Opcodes.ACC_PUBLIC, "listTools", "(Ljava/lang/String;Ljava/util/Map;)" + mono)).isTrue();
        assertThat(listTools.matches(Opcodes.ACC_PUBLIC, "listTools", "()" + mono)).isFalse();
        assertThat(listTools.matches(Opcodes.ACC_PRIVATE, "listTools", "(Ljava/lang/String;)" + mono)).isFalse();
        assertThat(listTools.matches(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "listTools", "(Ljava/lang/String;)" + mono)).isFalse();
        assertThat(listTools.matches(Opcodes.ACC_PUBLIC, "listTools", "(Ljava/lang/Object;)" + mono)).isFalse();
        assertThat(listTools.matches(Opcodes.ACC_PUBLIC, "listTools", "(Ljava/lang/String;)Ljava/lang/Object;")).isFalse();

        MethodShape callTool = MethodShape.publicMethod("callTool", 1, null, mono);
        assertThat(callTool.matches(Opcodes.ACC_PUBLIC, "callTool", "(Lio/modelcontextprotocol/spec/McpSchema$CallToolRequest;)" + mono)).isTrue();
        assertThat(callTool.matches(Opcodes.ACC_PUBLIC, "callTool", "(Ljava/lang/Object;Ljava/lang/Object;)" + mono)).isFalse();
        assertThat(callTool.matches(Opcodes.ACC_PUBLIC, "callTool", "(I)" + mono)).isFalse();
    }

    @Test
    void declaredMethodShapeChecksAccessArityFirstArgumentAndReturnType() {
        String context = ModernSdkModule.CONTEXT;
        String mono = MethodShape.MONO;
        String descriptor = "(" + context + "Lio/modelcontextprotocol/modern/server/feature/McpAsyncTool;Ljava/lang/Object;)" + mono;
        MethodShape call = MethodShape.method(Opcodes.ACC_PRIVATE, "call", 3, context, mono);
        assertThat(call.matches(Opcodes.ACC_PRIVATE, "call", descriptor)).isTrue();
        assertThat(call.matches(Opcodes.ACC_PUBLIC, "call", descriptor)).isFalse();
        assertThat(call.matches(Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC, "call", descriptor)).isFalse();
        assertThat(call.matches(Opcodes.ACC_PRIVATE | Opcodes.ACC_SYNTHETIC, "call", descriptor)).isFalse();
        assertThat(call.matches(Opcodes.ACC_PRIVATE, "call", "(" + context + "Ljava/lang/Object;)" + mono)).isFalse();
        assertThat(call.matches(Opcodes.ACC_PRIVATE, "call", "(Ljava/lang/Object;Ljava/lang/Object;Ljava/lang/Object;)" + mono)).isFalse();
        assertThat(call.matches(Opcodes.ACC_PRIVATE, "call", descriptor.replace(mono, "Ljava/lang/Object;"))).isFalse();

        MethodShape noArguments = MethodShape.method(Opcodes.ACC_PUBLIC, "callOnce", 0, null, mono);
        assertThat(noArguments.matches(Opcodes.ACC_PUBLIC, "callOnce", "()" + mono)).isTrue();
        assertThat(noArguments.matches(Opcodes.ACC_PUBLIC, "callOnce", "(Ljava/lang/String;)" + mono)).isFalse();
        assertThat(noArguments.matches(Opcodes.ACC_PUBLIC | Opcodes.ACC_BRIDGE, "callOnce", "()" + mono)).isFalse();
    }

    static byte[] bytesOf(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream("/" + type.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    /** Has the names but not the return type: the shape must find nothing rather than guess. */
    static final class LambdaShapes {
        BiFunction<Object, Object, Object> toolsCallRequestHandler() {
            return (exchange, params) -> {
                BiFunction<String, Integer, String> inner = (a, b) -> a + b;
                return inner.apply(String.valueOf(params), 1);
            };
        }
    }
}
