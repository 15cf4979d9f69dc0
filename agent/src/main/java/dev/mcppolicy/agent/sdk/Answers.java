package dev.mcppolicy.agent.sdk;

import dev.mcppolicy.engine.ResultJudge;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An SDK answer ({@code CallToolResult}, {@code ReadResourceResult}, {@code GetPromptResult}) as a result rule reads
 * it (SPEC §13), and the same answer rebuilt with what the rule redacted. The SDK's answer types are records in every
 * version the agent hooks, so both walk record components by name, whatever components a version has: every
 * {@code text} (a {@code TextContent}'s, a {@code TextResourceContents}'s, a prompt message's) is a text part, in
 * the order the answer holds them; {@code data} and {@code blob} (base64 of images, audio, blobs) count as bytes
 * the judge cannot read; a tool's {@code structuredContent} is its structured content (an object of the app's own
 * there read as the app's Jackson writes it, {@link AppJson}). A record is rebuilt through
 * its canonical constructor only where something in it changed: an answer nothing was redacted from stays the same
 * object.
 */
public final class Answers {
    /** How deep the walk goes into nested records and lists: an answer nested deeper cannot be judged (fail closed). */
    static final int MAX_DEPTH = 16;

    private static final ClassValue<Shape> SHAPES = new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> type) {
            return new Shape(type);
        }
    };

    private Answers() {
    }

    /** The parts of {@code answer} the judge reads. Throws when the answer cannot be read (the caller fails closed). */
    public static ResultJudge.Answer read(Object answer) throws ReflectiveOperationException {
        Reading reading = new Reading();
        walk(answer, reading, 0);
        return new ResultJudge.Answer(reading.texts, reading.structured, reading.otherBytes);
    }

    /**
     * {@code answer} with its text parts replaced by {@code texts} (one per part {@link #read} found, in the same order)
     * and its structured content by {@code structured}; the same object when neither changed anything.
     */
    public static Object rebuild(Object answer, List<String> texts, Object structured) throws ReflectiveOperationException {
        return rebuild(answer, new Rebuilding(texts, structured), 0);
    }

    /** What {@link #read} gathers. */
    private static final class Reading {
        final List<String> texts = new ArrayList<>();
        Object structured;
        long otherBytes;
    }

    /** What {@link #rebuild} puts back: the next text part's index into {@code texts}. */
    private static final class Rebuilding {
        final List<String> texts;
        final Object structured;
        int next;

        Rebuilding(List<String> texts, Object structured) {
            this.texts = texts;
            this.structured = structured;
        }
    }

    private static void walk(Object value, Reading reading, int depth) throws ReflectiveOperationException {
        if (value == null) {
            return;
        }
        if (depth > MAX_DEPTH) {
            throw new IllegalStateException("answer nested more than " + MAX_DEPTH + " levels deep");
        }
        if (value instanceof List<?> list) {
            for (Object element : list) {
                walk(element, reading, depth + 1);
            }
            return;
        }
        Class<?> type = value.getClass();
        if (!type.isRecord()) {
            return;
        }
        Shape shape = SHAPES.get(type);
        for (int i = 0; i < shape.accessors.length; i++) {
            Object component = shape.accessors[i].invoke(value);
            switch (shape.roles[i]) {
                case TEXT:
                    if (component instanceof String text) {
                        reading.texts.add(text);
                    }
                    break;
                case BYTES:
                    if (component instanceof String data) {
                        reading.otherBytes += data.length();
                    }
                    break;
                case STRUCTURED:
                    // an object of the app's own, converted as the SDK will write it (AppJson)
                    reading.structured = AppJson.jsonLike(component);
                    break;
                case NESTED:
                    walk(component, reading, depth + 1);
                    break;
                default:
                    break;
            }
        }
    }

    private static Object rebuild(Object value, Rebuilding rebuilding, int depth) throws ReflectiveOperationException {
        if (value == null || depth > MAX_DEPTH) {
            return value;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = null;
            for (int i = 0; i < list.size(); i++) {
                Object element = list.get(i);
                Object rebuilt = rebuild(element, rebuilding, depth + 1);
                if (rebuilt != element && copy == null) {
                    copy = new ArrayList<>(list);
                }
                if (copy != null) {
                    copy.set(i, rebuilt);
                }
            }
            return copy == null ? value : copy;
        }
        Class<?> type = value.getClass();
        if (!type.isRecord()) {
            return value;
        }
        Shape shape = SHAPES.get(type);
        Object[] components = null;
        for (int i = 0; i < shape.accessors.length; i++) {
            Object component = shape.accessors[i].invoke(value);
            Object replaced = component;
            switch (shape.roles[i]) {
                case TEXT:
                    if (component instanceof String) {
                        replaced = rebuilding.texts.get(rebuilding.next++);
                    }
                    break;
                case STRUCTURED:
                    replaced = rebuilding.structured;
                    break;
                case NESTED:
                    replaced = rebuild(component, rebuilding, depth + 1);
                    break;
                default:
                    break;
            }
            if (replaced != component && components == null) {
                components = new Object[shape.accessors.length];
                for (int j = 0; j < i; j++) {
                    components[j] = shape.accessors[j].invoke(value);
                }
            }
            if (components != null) {
                components[i] = replaced;
            }
        }
        return components == null ? value : shape.constructor().newInstance(components);
    }

    /**
     * A copy of a list result record ({@code ListResourcesResult}, {@code ListPromptsResult}, ...) whose list component
     * {@code items} holds only the entries {@code keep} accepts by their {@code key} ({@code uri}, {@code name}); every
     * other component (cursor, meta) copied as it is. The same object when it keeps every entry.
     */
    public static Object filterList(Object listResult, String items, String key, java.util.function.Predicate<String> keep)
            throws ReflectiveOperationException {
        if (listResult == null) {
            return null;
        }
        Shape shape = SHAPES.get(listResult.getClass());
        Object[] components = new Object[shape.accessors.length];
        boolean changed = false;
        for (int i = 0; i < components.length; i++) {
            components[i] = shape.accessors[i].invoke(listResult);
            if (shape.names[i].equals(items) && components[i] instanceof List<?> all) {
                List<Object> kept = new ArrayList<>(all.size());
                for (Object item : all) {
                    if (keep.test(Reflection.asString(Reflection.call(item, key)))) {
                        kept.add(item);
                    }
                }
                changed = kept.size() != all.size();
                components[i] = kept;
            }
        }
        return changed ? shape.constructor().newInstance(components) : listResult;
    }

    /** What a record component is to the judge. */
    private enum Role {
        TEXT, BYTES, STRUCTURED, NESTED, OTHER
    }

    /** A record type's components, their accessors and roles, and its canonical constructor: found once per type. */
    private static final class Shape {
        final Method[] accessors;
        final String[] names;
        final Role[] roles;
        private final Class<?> type;
        private final Class<?>[] types;
        private volatile Constructor<?> constructor;

        Shape(Class<?> type) {
            this.type = type;
            RecordComponent[] components = type.isRecord() ? type.getRecordComponents() : new RecordComponent[0];
            accessors = new Method[components.length];
            names = new String[components.length];
            roles = new Role[components.length];
            types = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                accessors[i] = components[i].getAccessor();
                accessors[i].trySetAccessible();
                names[i] = components[i].getName();
                types[i] = components[i].getType();
                roles[i] = roleOf(names[i], types[i]);
            }
        }

        Constructor<?> constructor() throws NoSuchMethodException {
            Constructor<?> canonical = constructor;
            if (canonical == null) {
                canonical = type.getDeclaredConstructor(types);
                canonical.trySetAccessible();
                constructor = canonical;
            }
            return canonical;
        }

        private static Role roleOf(String name, Class<?> type) {
            if (type == String.class) {
                return name.equals("text") ? Role.TEXT : name.equals("data") || name.equals("blob") ? Role.BYTES : Role.OTHER;
            }
            if (name.equals("structuredContent")) {
                return Role.STRUCTURED;
            }
            if (type.isPrimitive() || type.isEnum() || Map.class.isAssignableFrom(type) || type.getName().startsWith("java.lang.")) {
                return Role.OTHER;
            }
            // lists of content, contents and messages; nested content records (an embedded resource, a message's content)
            return Role.NESTED;
        }
    }
}
