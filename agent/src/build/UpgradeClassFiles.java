import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * A build step of the agent's jar (issue 16), run by the antrun plugin with the JDK's source launcher:
 * {@code java -cp asm.jar UpgradeClassFiles.java DIR}. It rewrites every class file under DIR that is older than
 * Java 8 (ASM ships as Java 5 class files) as a Java 8 class file with stack map frames, computed by ASM.
 *
 * <p>Why: the JVM checks a class file without frames (before Java 6) with its old inference verifier, which costs
 * the shaded ASM's ~30 classes ~8 ms of the app's main thread when it weaves its first SDK class; with frames it
 * only checks them, a fraction of that. The code itself is not changed: the same instructions, recomputed maximum
 * stack sizes and added frames. The class hierarchy the frames need comes from the class files under DIR and, for
 * the JDK's types, from this JVM.
 */
public final class UpgradeClassFiles {
    private static final int JAVA_8 = Opcodes.V1_8;

    private final Map<String, Info> classes = new HashMap<>();

    /** A class's place in the hierarchy. */
    private record Info(String superName, List<String> interfaces, boolean isInterface) {
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".class")).toList();
        }
        UpgradeClassFiles upgrade = new UpgradeClassFiles();
        for (Path file : files) {
            ClassReader reader = new ClassReader(Files.readAllBytes(file));
            upgrade.classes.put(reader.getClassName(), new Info(reader.getSuperName(), List.of(reader.getInterfaces()),
                    (reader.getAccess() & Opcodes.ACC_INTERFACE) != 0));
        }
        int upgraded = 0;
        for (Path file : files) {
            byte[] bytes = Files.readAllBytes(file);
            int major = ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff);
            if (major < JAVA_8) {
                Files.write(file, upgrade.upgrade(bytes));
                upgraded++;
            }
        }
        if (upgraded == 0) {
            throw new IllegalStateException("no class file older than Java 8 under " + root + ": is this step still needed?");
        }
        System.out.println("[upgrade-class-files] " + upgraded + " of " + files.size() + " class files under " + root
                + " rewritten as Java 8 class files with stack map frames");
    }

    private byte[] upgrade(byte[] original) {
        ClassReader reader = new ClassReader(original);
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String type1, String type2) {
                return commonSuperClass(type1, type2);
            }
        };
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                super.visit(JAVA_8, access, name, signature, superName, interfaces);
            }
        }, ClassReader.SKIP_FRAMES);
        return writer.toByteArray();
    }

    /** What {@link ClassWriter#getCommonSuperClass} does by loading classes, from the hierarchy read above. */
    private String commonSuperClass(String type1, String type2) {
        if (isAssignableFrom(type1, type2)) {
            return type1;
        }
        if (isAssignableFrom(type2, type1)) {
            return type2;
        }
        if (info(type1).isInterface() || info(type2).isInterface()) {
            return "java/lang/Object";
        }
        String common = type1;
        do {
            common = info(common).superName();
        } while (!isAssignableFrom(common, type2));
        return common;
    }

    /** Whether {@code type} is {@code candidate} or one of its supertypes. */
    private boolean isAssignableFrom(String type, String candidate) {
        if (type.equals(candidate)) {
            return true;
        }
        Info info = info(candidate);
        List<String> supertypes = new ArrayList<>(info.interfaces());
        if (info.superName() != null) {
            supertypes.add(info.superName());
        }
        for (String supertype : supertypes) {
            if (isAssignableFrom(type, supertype)) {
                return true;
            }
        }
        return false;
    }

    private Info info(String type) {
        Info known = classes.get(type);
        if (known != null) {
            return known;
        }
        try {
            Class<?> jdk = Class.forName(type.replace('/', '.'), false, ClassLoader.getPlatformClassLoader());
            List<String> interfaces = new ArrayList<>();
            for (Class<?> implemented : jdk.getInterfaces()) {
                interfaces.add(implemented.getName().replace('.', '/'));
            }
            Info info = new Info(jdk.getSuperclass() == null ? null : jdk.getSuperclass().getName().replace('.', '/'), interfaces,
                    jdk.isInterface());
            classes.put(type, info);
            return info;
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("a type the frames need is neither under the directory nor the JDK's: " + type, e);
        }
    }
}
