package dev.mcppolicy.agent.instrumentation;

/** Test plumbing shared by the weave tests: a sample class's bytes and name, and a loader that defines its woven copy. */
final class WovenClasses {
    private WovenClasses() {
    }

    static String internalName(Class<?> type) {
        return type.getName().replace('.', '/');
    }

    static byte[] bytes(Class<?> type) {
        try {
            return McpSdkModuleTest.bytesOf(type);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Defines one class from given bytes, everything else from the test class path. */
    static final class WovenLoader extends ClassLoader {
        private final String name;
        private final byte[] bytes;

        WovenLoader(String name, byte[] bytes) {
            super(WovenClasses.class.getClassLoader());
            this.name = name;
            this.bytes = bytes;
        }

        @Override
        protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
            if (!className.equals(name)) {
                return super.loadClass(className, resolve);
            }
            synchronized (getClassLoadingLock(className)) {
                Class<?> loaded = findLoadedClass(className);
                return loaded != null ? loaded : defineClass(className, bytes, 0, bytes.length);
            }
        }
    }
}
