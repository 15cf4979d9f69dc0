package dev.mcppolicy.schema;

import dev.mcppolicy.text.DisplayText;
import java.util.ArrayList;
import java.util.List;

/**
 * A compiled JSON Schema of the subset the policy format supports: draft 2020-12's {@code type},
 * {@code enum}, {@code const}, the string, number, object and array keywords, {@code allOf},
 * {@code anyOf}, {@code oneOf}, {@code not}, {@code if}/{@code then}/{@code else}, and {@code $ref} to a
 * place in the same document ({@code #}, {@code #/$defs/name}, {@code #/definitions/name}, any
 * {@code #/...} pointer). docs/policy.md, "The arguments schema", lists them.
 *
 * <p>Written here rather than taken from a validator library because the agent bundles it: it must
 * not bring a logging framework or reflection into the host, it must use the linear-time RE2/J for
 * {@code pattern}, and checking a valid value should not allocate. In strict mode (policy files) any
 * other keyword but an annotation is an error, so that a schema never looks stricter than it is. In
 * lenient mode (a tool's own {@code inputSchema}) the draft-07 forms are read too ({@code items} as an
 * array, {@code additionalItems}, {@code dependencies}), annotations and unknown keywords are passed
 * over, and an unknown keyword that looks like a constraint makes the schema unusable, so that its
 * calls are denied rather than checked less than the tool's author meant.
 *
 * <p>Violation messages name the instance location and the rule, never the offending value: they are
 * logged, and argument values must not be. Property names in them come from the arguments, so each is
 * shown escaped and capped as {@link DisplayText} does it ({@value #NAME_CAP} chars). A combinator's
 * message says which branch came closest and how it fails.
 *
 * <p>Bounds. Compiling rejects a schema that nests more than {@value #MAX_DEPTH} objects and arrays
 * deep (an error in a policy; a tool's schema that {@link #compileLenient} refuses, so its calls are
 * denied) and recurses only as deep as that: each subschema is compiled once, where it stands, and a
 * {@code $ref} is a link to it, not a second compile. A loop of references that applies schemas to the
 * same value forever ({@code {"$ref": "#"}}) is a compile error. Without {@code $ref}, validation goes
 * only as deep as the schema, so any instance, however deep, validates without a deep Java stack; with
 * it, a schema can be recursive, and a check that would go more than {@value #MAX_VALIDATION_DEPTH}
 * subschemas deep, or do more than {@value #MAX_VALIDATION_STEPS} steps of work (a reference graph can
 * apply a subschema exponentially often), fails with a violation. Values inside {@code enum},
 * {@code const} and {@code uniqueItems} compare iteratively.
 *
 * <p>Allocation. Checking a valid value allocates nothing, except for {@code uniqueItems} (the items'
 * canonical JSON), {@code multipleOf} of a number that is not a small integer (decimals), and a schema
 * with {@code $ref} (one work counter per check).
 *
 * <p>Numbers compare by value whatever their Java type, infinities beyond every finite bound; NaN
 * satisfies no {@code minimum}, {@code maximum}, exclusive bound or {@code multipleOf}.
 */
public final class JsonSchema {
    /** Receives the problems found while compiling, each at a JSON Pointer relative to the schema root. */
    public interface Problems {
        void report(String pointer, String message);
    }

    /** The deepest nesting of objects and arrays a schema document may reach. */
    public static final int MAX_DEPTH = 64;
    /**
     * The deepest a check may go, counted in subschemas applied one inside another (a {@code $ref}, a
     * combinator's branch, a property's or an item's schema each count one). Only a recursive schema can
     * reach it: any other goes at most {@value #MAX_DEPTH} deep. A check recurses once per subschema, and
     * this many fit on a 256 KB thread stack with room to spare whatever the JIT has made of the code.
     */
    public static final int MAX_VALIDATION_DEPTH = 2 * MAX_DEPTH;
    /**
     * The most work one check against a schema with {@code $ref} may do, in steps: a subschema applied,
     * a member of an object or array looked at, 16 chars of a string scanned.
     */
    public static final long MAX_VALIDATION_STEPS = 10_000_000;
    /**
     * The longest regular expression a schema's {@code pattern} (and a policy's {@code regex} condition)
     * may be: RE2/J matches in linear time, but compiling takes time that grows faster than the length.
     */
    public static final int MAX_PATTERN_LENGTH = 4096;
    /** The most chars of a property name a violation message shows. */
    static final int NAME_CAP = 64;

    private final Subschema root;
    private final boolean usesReferences;

    private JsonSchema(Subschema root, boolean usesReferences) {
        this.root = root;
        this.usesReferences = usesReferences;
    }

    /**
     * Compiles {@code schema} (a {@code Map} or a {@code Boolean}). Problems go to {@code problems};
     * the result is only meaningful when none were reported.
     */
    public static JsonSchema compile(Object schema, boolean strict, Problems problems) {
        SchemaCompiler compiler = new SchemaCompiler(strict, problems);
        Subschema root = compiler.compileDocument(schema);
        return new JsonSchema(root, compiler.usesReferences());
    }

    /**
     * Compiles a tool's advertised input schema leniently; throws {@link IllegalArgumentException} if it
     * is unusable (malformed, a {@code $ref} out of the document or in a loop, a constraint it cannot check),
     * its message the first problem, at its pointer.
     */
    public static JsonSchema compileLenient(Object schema) {
        List<String> found = new ArrayList<>();
        JsonSchema compiled = compile(schema, false, (pointer, message) -> found.add(
                (pointer.isEmpty() ? "" : pointer + ": ") + message));
        if (!found.isEmpty()) {
            throw new IllegalArgumentException(found.get(0));
        }
        return compiled;
    }

    /** The first way {@code instance} breaks this schema, or {@code null} when it is valid. */
    public String firstViolation(Object instance) {
        Subschema.Budget budget = usesReferences ? new Subschema.Budget(MAX_VALIDATION_STEPS) : null;
        Violation violation = root.check(instance, 1, false, budget);
        return violation == null ? null : violation.render();
    }

    /** An argument's property name as a message may show it: escaped, and capped at {@link #NAME_CAP} chars. */
    static String shown(String name) {
        return shown(name, NAME_CAP);
    }

    /** {@code text} as a message may show it between single quotes: escaped, and capped at {@code cap} chars. */
    static String shown(String text, int cap) {
        StringBuilder shown = new StringBuilder(Math.min(text.length(), cap) + 16);
        DisplayText.appendQuoted(text, '\'', cap, shown);
        return shown.toString();
    }
}
