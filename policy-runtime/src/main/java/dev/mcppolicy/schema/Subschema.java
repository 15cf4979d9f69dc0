package dev.mcppolicy.schema;

import com.google.re2j.Pattern;
import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.json.JsonValues;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One compiled (sub)schema, and the check of a value against it. Filled in by {@link SchemaCompiler}
 * and never changed after; a {@code $ref} is a link to the target's node, so a recursive schema is a
 * graph, and each check carries its depth so that no value can take it deeper than
 * {@link JsonSchema#MAX_VALIDATION_DEPTH}.
 *
 * <p>{@code quiet}: the caller only needs to know whether the value passes (a branch being tried), so a
 * failure is {@link Violation#FAILED} or {@link Violation#WRONG_TYPE}, not a message. {@code budget}:
 * the work left, for a schema with {@code $ref} (whose graph could make a check take exponential time),
 * else {@code null}.
 */
final class Subschema {
    static final int T_STRING = 1;
    static final int T_NUMBER = 2;
    static final int T_INTEGER = 4;
    static final int T_BOOLEAN = 8;
    static final int T_OBJECT = 16;
    static final int T_ARRAY = 32;
    static final int T_NULL = 64;

    private static final Subschema[] NONE = new Subschema[0];
    private static final String[] NO_NAMES = new String[0];

    Boolean constant;
    int types;
    String typeText;
    List<Object> enumValues;
    boolean hasConst;
    Object constValue;

    Pattern pattern;
    String patternText;
    long minLength = -1;
    long maxLength = -1;

    Number minimum;
    Number maximum;
    Number exclusiveMinimum;
    Number exclusiveMaximum;
    Number multipleOf;

    Map<String, Subschema> properties = Map.of();
    String[] required = NO_NAMES;
    boolean additionalAllowed = true;
    Subschema additional;
    Pattern[] propertyPatterns = new Pattern[0];
    Subschema[] patternProperties = NONE;
    Subschema propertyNames;
    long minProperties = -1;
    long maxProperties = -1;
    String[] dependentNames = NO_NAMES;
    String[][] dependentRequired = new String[0][];
    String[] dependentSchemaNames = NO_NAMES;
    Subschema[] dependentSchemas = NONE;

    Subschema[] prefixItems = NONE;
    Subschema items;
    long minItems = -1;
    long maxItems = -1;
    boolean uniqueItems;
    Subschema contains;
    long minContains = 1;
    long maxContains = -1;

    Subschema ref;
    Subschema[] allOf;
    Subschema[] anyOf;
    Subschema[] oneOf;
    Subschema not;
    Subschema ifSchema;
    Subschema thenSchema;
    Subschema elseSchema;

    /** The schemas this one applies to the same value; a cycle of them is a loop that never ends. */
    void forEachInPlace(Consumer<Subschema> action) {
        if (ref != null) {
            action.accept(ref);
        }
        for (Subschema[] group : new Subschema[][] {allOf, anyOf, oneOf, dependentSchemas}) {
            if (group != null) {
                for (Subschema schema : group) {
                    action.accept(schema);
                }
            }
        }
        for (Subschema schema : new Subschema[] {not, ifSchema, thenSchema, elseSchema}) {
            if (schema != null) {
                action.accept(schema);
            }
        }
    }

    /**
     * Checks {@code value}, {@code depth} subschemas deep. The methods a check recurses through (this
     * one, {@code checkObject}, {@code checkProperty}, {@code checkArray}, {@code checkInPlace} and the
     * combinators) keep their frames small: messages are built in the methods after them.
     */
    Violation check(Object value, int depth, boolean quiet, Budget budget) {
        if (depth > JsonSchema.MAX_VALIDATION_DEPTH) {
            return tooDeep();
        }
        if (budget != null && budget.overspent(1)) {
            return budget.exhausted();
        }
        if (constant != null) {
            return constant ? null : quiet ? Violation.FAILED : Violation.of("no value is allowed here");
        }
        if (types != 0 && (types & typeOf(value)) == 0) {
            return quiet ? Violation.WRONG_TYPE : wrongType(value);
        }
        Violation violation = checkValue(value, quiet, budget);
        if (violation == null && value instanceof Map) {
            violation = checkObject((Map<?, ?>) value, depth, quiet, budget);
        } else if (violation == null && value instanceof List) {
            violation = checkArray((List<?>) value, depth, quiet, budget);
        }
        return violation != null ? violation : checkInPlace(value, depth, quiet, budget);
    }

    private static Violation tooDeep() {
        return Violation.stop("checking the value goes more than " + JsonSchema.MAX_VALIDATION_DEPTH + " subschemas deep here");
    }

    private Violation wrongType(Object value) {
        return Violation.of("expected " + typeText + ", got " + JsonValues.typeName(value));
    }

    /** The keywords that look at the value itself and at nothing inside it. */
    private Violation checkValue(Object value, boolean quiet, Budget budget) {
        if (enumValues != null && !contains(enumValues, value)) {
            return quiet ? Violation.FAILED : Violation.of("must be one of the schema's enum values");
        }
        if (hasConst && !JsonValues.jsonEquals(constValue, value)) {
            return quiet ? Violation.FAILED : Violation.of("must equal the schema's const value");
        }
        if (value instanceof String) {
            return checkString((String) value, quiet, budget);
        }
        if (value instanceof Number) {
            return checkNumber((Number) value, quiet);
        }
        if (value instanceof Map) {
            return checkObjectSize((Map<?, ?>) value, quiet, budget);
        }
        if (value instanceof List) {
            return checkArraySize((List<?>) value, quiet, budget);
        }
        return null;
    }

    private Violation checkString(String text, boolean quiet, Budget budget) {
        if (pattern == null && minLength < 0 && maxLength < 0) {
            return null;
        }
        if (budget != null && budget.overspent(text.length() >> 4)) {
            return budget.exhausted();
        }
        if (minLength >= 0 || maxLength >= 0) {
            long length = text.codePointCount(0, text.length());
            if (minLength >= 0 && length < minLength) {
                return quiet ? Violation.FAILED : Violation.of("must be at least " + minLength + " characters long");
            }
            if (maxLength >= 0 && length > maxLength) {
                return quiet ? Violation.FAILED : Violation.of("must be at most " + maxLength + " characters long");
            }
        }
        if (pattern != null && !pattern.matcher(text).find()) {
            return quiet ? Violation.FAILED : Violation.of("does not match pattern " + patternText);
        }
        return null;
    }

    /** NaN has no order, so it satisfies no bound: it is not {@code >= 0}, nor {@code <= 100}, nor a multiple. */
    private Violation checkNumber(Number number, boolean quiet) {
        if (minimum != null && !holds(JsonValues.compareNumbers(number, minimum), 0, 1)) {
            return quiet ? Violation.FAILED : Violation.of("must be >= " + minimum);
        }
        if (maximum != null && !holds(JsonValues.compareNumbers(number, maximum), -1, 0)) {
            return quiet ? Violation.FAILED : Violation.of("must be <= " + maximum);
        }
        if (exclusiveMinimum != null && !holds(JsonValues.compareNumbers(number, exclusiveMinimum), 1, 1)) {
            return quiet ? Violation.FAILED : Violation.of("must be > " + exclusiveMinimum);
        }
        if (exclusiveMaximum != null && !holds(JsonValues.compareNumbers(number, exclusiveMaximum), -1, -1)) {
            return quiet ? Violation.FAILED : Violation.of("must be < " + exclusiveMaximum);
        }
        if (multipleOf != null && !JsonValues.isMultipleOf(number, multipleOf)) {
            return quiet ? Violation.FAILED : Violation.of("must be a multiple of " + multipleOf);
        }
        return null;
    }

    /** Whether an order is one of the allowed signs; an unordered comparison (NaN) never is. */
    private static boolean holds(int order, int lowestSign, int highestSign) {
        return order != JsonValues.UNORDERED && Integer.signum(order) >= lowestSign && Integer.signum(order) <= highestSign;
    }

    /** The object keywords that look at its names and size, not into its members. */
    private Violation checkObjectSize(Map<?, ?> object, boolean quiet, Budget budget) {
        if (budget != null && budget.overspent((long) object.size() * (1 + propertyPatterns.length))) {
            return budget.exhausted();
        }
        if (minProperties >= 0 && object.size() < minProperties) {
            return quiet ? Violation.FAILED : Violation.of("must have at least " + minProperties + " properties");
        }
        if (maxProperties >= 0 && object.size() > maxProperties) {
            return quiet ? Violation.FAILED : Violation.of("must have at most " + maxProperties + " properties");
        }
        for (String name : required) {
            if (!object.containsKey(name)) {
                return quiet ? Violation.FAILED : Violation.of("required property '" + JsonSchema.shown(name) + "' is missing");
            }
        }
        for (int i = 0; i < dependentNames.length; i++) {
            if (object.containsKey(dependentNames[i])) {
                for (String name : dependentRequired[i]) {
                    if (!object.containsKey(name)) {
                        return quiet ? Violation.FAILED : Violation.of("required property '" + JsonSchema.shown(name)
                                + "' is missing (property '" + JsonSchema.shown(dependentNames[i]) + "' needs it)");
                    }
                }
            }
        }
        return null;
    }

    private Violation checkObject(Map<?, ?> object, int depth, boolean quiet, Budget budget) {
        for (Map.Entry<?, ?> entry : object.entrySet()) {
            Violation violation = checkProperty(String.valueOf(entry.getKey()), entry.getValue(), depth, quiet, budget);
            if (violation != null) {
                return violation;
            }
        }
        for (int i = 0; i < dependentSchemas.length; i++) {
            if (object.containsKey(dependentSchemaNames[i])) {
                Violation violation = dependentSchemas[i].check(object, depth + 1, quiet, budget);
                if (violation != null) {
                    return violation;
                }
            }
        }
        return null;
    }

    private Violation checkProperty(String name, Object value, int depth, boolean quiet, Budget budget) {
        if (propertyNames != null) {
            Violation violation = propertyNames.check(name, depth + 1, quiet, budget);
            if (violation != null) {
                return quiet || violation.stopped ? violation : badName(name, violation);
            }
        }
        boolean declared = false;
        Subschema property = properties.get(name);
        if (property != null) {
            declared = true;
            Violation violation = property.check(value, depth + 1, quiet, budget);
            if (violation != null) {
                return violation.under(name);
            }
        }
        for (int i = 0; i < propertyPatterns.length; i++) {
            if (propertyPatterns[i].matcher(name).find()) {
                declared = true;
                Violation violation = patternProperties[i].check(value, depth + 1, quiet, budget);
                if (violation != null) {
                    return violation.under(name);
                }
            }
        }
        if (declared) {
            return null;
        }
        if (!additionalAllowed) {
            return quiet ? Violation.FAILED : notAllowed(name);
        }
        Violation violation = additional == null ? null : additional.check(value, depth + 1, quiet, budget);
        return violation == null ? null : violation.under(name);
    }

    private static Violation badName(String name, Violation violation) {
        return Violation.of("property name '" + JsonSchema.shown(name) + "' does not match propertyNames: " + violation.message);
    }

    private static Violation notAllowed(String name) {
        return Violation.of("property '" + JsonSchema.shown(name) + "' is not allowed");
    }

    /** The array keywords that look at its size and compare its items, not into them. */
    private Violation checkArraySize(List<?> array, boolean quiet, Budget budget) {
        if (budget != null && budget.overspent(array.size())) {
            return budget.exhausted();
        }
        if (minItems >= 0 && array.size() < minItems) {
            return quiet ? Violation.FAILED : Violation.of("must have at least " + minItems + " items");
        }
        if (maxItems >= 0 && array.size() > maxItems) {
            return quiet ? Violation.FAILED : Violation.of("must have at most " + maxItems + " items");
        }
        return uniqueItems && array.size() > 1 ? checkUnique(array, quiet, budget) : null;
    }

    private Violation checkArray(List<?> array, int depth, boolean quiet, Budget budget) {
        if (prefixItems.length > 0 || items != null) {
            for (int i = 0; i < array.size(); i++) {
                Subschema schema = i < prefixItems.length ? prefixItems[i] : items;
                if (schema == null) {
                    break;
                }
                Violation violation = schema.check(array.get(i), depth + 1, quiet, budget);
                if (violation != null) {
                    return violation.under(Integer.toString(i));
                }
            }
        }
        return contains == null ? null : checkContains(array, depth, quiet, budget);
    }

    /**
     * Items are equal when their canonical JSON is: numbers by value, as everywhere else. NaN and the
     * infinities, which JSON lacks, are written as strings there, so they count as equal to themselves
     * and to those strings: stricter than {@link JsonValues#jsonEquals}, never looser.
     */
    private static Violation checkUnique(List<?> array, boolean quiet, Budget budget) {
        if (budget != null && budget.overspent(array.size())) {
            return budget.exhausted();
        }
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < array.size(); i++) {
            Integer first = seen.putIfAbsent(CanonicalJson.write(array.get(i)), i);
            if (first != null) {
                return quiet ? Violation.FAILED : Violation.of("must not contain equal items (items " + first + " and " + i
                        + " are equal)");
            }
        }
        return null;
    }

    private Violation checkContains(List<?> array, int depth, boolean quiet, Budget budget) {
        long matched = 0;
        for (int i = 0; i < array.size(); i++) {
            Violation violation = contains.check(array.get(i), depth + 1, true, budget);
            if (violation == null) {
                matched++;
                if (matched >= minContains && maxContains < 0) {
                    return null;
                }
            } else if (violation.stopped) {
                return violation.under(Integer.toString(i));
            }
        }
        if (matched < minContains) {
            return quiet ? Violation.FAILED : Violation.of("must contain at least " + minContains
                    + " items that match contains (found " + matched + ")");
        }
        if (maxContains >= 0 && matched > maxContains) {
            return quiet ? Violation.FAILED : Violation.of("must contain at most " + maxContains
                    + " items that match contains (found " + matched + ")");
        }
        return null;
    }

    /** The keywords that apply other schemas to this same value: {@code $ref}, the combinators, {@code if}. */
    private Violation checkInPlace(Object value, int depth, boolean quiet, Budget budget) {
        if (ref != null) {
            Violation violation = ref.check(value, depth + 1, quiet, budget);
            if (violation != null) {
                return violation;
            }
        }
        if (allOf != null) {
            for (Subschema schema : allOf) {
                Violation violation = schema.check(value, depth + 1, quiet, budget);
                if (violation != null) {
                    return violation;
                }
            }
        }
        if (anyOf != null) {
            Violation violation = checkAnyOf(value, depth, quiet, budget);
            if (violation != null) {
                return violation;
            }
        }
        if (oneOf != null) {
            Violation violation = checkOneOf(value, depth, quiet, budget);
            if (violation != null) {
                return violation;
            }
        }
        if (not != null) {
            Violation violation = not.check(value, depth + 1, true, budget);
            if (violation == null) {
                return quiet ? Violation.FAILED : Violation.of("must not match the schema in not");
            }
            if (violation.stopped) {
                return violation;
            }
        }
        if (ifSchema != null) {
            Violation condition = ifSchema.check(value, depth + 1, true, budget);
            if (condition != null && condition.stopped) {
                return condition;
            }
            Subschema branch = condition == null ? thenSchema : elseSchema;
            return branch == null ? null : branch.check(value, depth + 1, quiet, budget);
        }
        return null;
    }

    private Violation checkAnyOf(Object value, int depth, boolean quiet, Budget budget) {
        int closest = -1;
        for (int i = 0; i < anyOf.length; i++) {
            Violation violation = anyOf[i].check(value, depth + 1, true, budget);
            if (violation == null) {
                return null;
            }
            if (violation.stopped) {
                return violation;
            }
            if (closest < 0 && violation != Violation.WRONG_TYPE) {
                closest = i;
            }
        }
        if (quiet) {
            return Violation.FAILED;
        }
        return explainBranch("must match at least one schema in anyOf", "", " (anyOf/", anyOf, Math.max(closest, 0), value,
                depth, budget);
    }

    private Violation checkOneOf(Object value, int depth, boolean quiet, Budget budget) {
        int matched = 0;
        int closest = -1;
        for (int i = 0; i < oneOf.length; i++) {
            Violation violation = oneOf[i].check(value, depth + 1, true, budget);
            if (violation == null) {
                matched++;
                if (matched > 1 && quiet) {
                    return Violation.FAILED;
                }
            } else if (violation.stopped) {
                return violation;
            } else if (closest < 0 && violation != Violation.WRONG_TYPE) {
                closest = i;
            }
        }
        if (matched == 1) {
            return null;
        }
        if (quiet) {
            return Violation.FAILED;
        }
        if (matched > 1) {
            return Violation.of("must match exactly one schema in oneOf (matched " + matched + ")");
        }
        return explainBranch("must match exactly one schema in oneOf (matched 0", ")", "; oneOf/", oneOf, Math.max(closest, 0),
                value, depth, budget);
    }

    /**
     * The failure of a combinator none of whose branches matched, with how branch {@code shown} fails:
     * the first that did not fail on its own {@code type}, which is the one the value was most likely
     * meant for. Only that branch is checked again, for its message.
     */
    private static Violation explainBranch(String message, String close, String label, Subschema[] branches, int shown,
                                           Object value, int depth, Budget budget) {
        Violation why = branches[shown].check(value, depth + 1, false, budget);
        if (why == null) {
            return Violation.of(message + close);
        }
        return why.stopped ? why : Violation.explained(message, label + shown, why, ")");
    }

    private static boolean contains(List<Object> values, Object value) {
        Object probe = value == null ? NullValue.INSTANCE : value;
        for (Object candidate : values) {
            if (JsonValues.jsonEquals(candidate, probe)) {
                return true;
            }
        }
        return false;
    }

    private static int typeOf(Object value) {
        if (value == null) {
            return T_NULL;
        }
        if (value instanceof String) {
            return T_STRING;
        }
        if (value instanceof Number) {
            return JsonValues.isIntegral((Number) value) ? T_NUMBER | T_INTEGER : T_NUMBER;
        }
        if (value instanceof Boolean) {
            return T_BOOLEAN;
        }
        if (value instanceof Map) {
            return T_OBJECT;
        }
        if (value instanceof List) {
            return T_ARRAY;
        }
        return 0;
    }

    /** Stands for JSON null inside immutable enum lists, which cannot hold Java null. */
    enum NullValue { INSTANCE }

    /**
     * The work a check against a schema with {@code $ref} may do: a step for each subschema applied, each
     * member of an object or array it looks at, and each 16 chars of a string it scans.
     */
    static final class Budget {
        private long left;

        Budget(long steps) {
            this.left = steps;
        }

        /** Spends {@code steps}; true when that is more than was left. */
        boolean overspent(long steps) {
            left -= steps;
            return left < 0;
        }

        Violation exhausted() {
            return Violation.stop("checking the value against this schema takes more than " + JsonSchema.MAX_VALIDATION_STEPS
                    + " steps");
        }
    }
}
