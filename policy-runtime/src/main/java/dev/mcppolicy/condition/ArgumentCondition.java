package dev.mcppolicy.condition;

import com.google.re2j.Pattern;
import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.json.JsonValues;
import dev.mcppolicy.policy.Condition;
import dev.mcppolicy.policy.Op;
import dev.mcppolicy.text.DisplayText;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * A {@link Condition} compiled for one place in a rule: a {@code require} (it must hold) or a
 * {@code deny_if} (it must not). A condition is never dodged by a value's type or shape (issue 9):
 * <ul>
 *   <li>The operand decides how a scalar argument is read. A number operand ({@code lt lte gt gte}, and
 *       {@code eq neq in not_in contains} against numbers) reads a numeric string by its value
 *       ({@code "5000"}, {@code "5e3"}, {@code " 5000 "}; see {@link Readings}). A string operand
 *       ({@code regex}, {@code max_length}, {@code contains}, {@code eq}... against strings) reads a number
 *       as its plain text and a boolean as {@code true}/{@code false}. A boolean operand reads
 *       {@code "true"}/{@code "false"} (any case) and {@code 0}/{@code 1}.
 *   <li>An array or object at the path is tested leaf by leaf: each string, number and boolean inside it,
 *       at most {@value #MAX_DEPTH} levels and {@value #MAX_NODES} values deep and wide. A {@code deny_if}
 *       holds when any leaf matches; a {@code require} when every leaf does (and {@code contains}, which
 *       asks whether something is in the value, when any leaf does). A {@code deny_if} with a text
 *       operand also tests a flat array's items joined with single spaces, as a tool building a command
 *       line would join them ({@code ["rm", "-rf", "/"]} contains {@code "rm -rf"}).
 *   <li>A leaf the operand cannot read (a word where a number is wanted, a value too long or too deep to
 *       test) cannot be checked: it stops the call in either place, a {@code deny_if} because it might
 *       match, a {@code require} because it cannot be shown to hold.
 *   <li>An absent path, a {@code null}, and an array or object with no leaves hold nothing a tool could
 *       act on (Jackson binds a {@code null} as it binds a missing argument): the condition is false in
 *       both places. {@code exists} is a pure presence test ({@code null} is present); {@code eq},
 *       {@code neq}, {@code in} and {@code not_in} against {@code null}, an array or an object compare
 *       whole JSON values.
 * </ul>
 * A string longer than the engine's cap ({@code valueLengthCap}) at the path cannot be checked
 * whatever the op, so oversized input can neither slow a decision nor slip past one. Checking a call
 * that passes allocates nothing when the value at the path is a number, a boolean, a string not read as
 * a number, or an array of those (a {@code deny_if} joining an argv allocates the joined text).
 */
public final class ArgumentCondition {
    /** Where the condition sits in its rule. */
    public enum Role { REQUIRE, DENY_IF }

    /** The deepest an array or object at a condition's path is searched for leaves. */
    public static final int MAX_DEPTH = 32;
    /** The most values (leaves and containers) searched in an array or object at a condition's path. */
    public static final int MAX_NODES = 10_000;

    private static final String JOINED = ", its items joined with spaces";

    /**
     * Why a condition stops a call. {@link #argument} is where, as a display path ({@code args.amount.0});
     * {@link #detail} is {@code null} when the value at the path itself simply matched (a {@code deny_if})
     * or failed (a {@code require}), else what the caller should read:
     * {@code at args.amount.0} or {@code args.amount: a string that is not a number cannot be checked}.
     */
    public record Stop(String argument, String detail) {
    }

    private static final int FALSE = 0;
    private static final int TRUE = 1;
    private static final int PROBLEM = 2;

    private final Condition source;
    private final ArgumentPath path;
    private final Role role;
    private final Op op;
    private final Object value;
    private final Pattern pattern;
    private final long maxLength;
    private final int valueLengthCap;
    private final String displayPath;
    private final Stop atPath;
    /** Whether eq/neq compare whole JSON values (a null, array or object operand). */
    private final boolean structural;
    /** in/not_in members by how they read a leaf. */
    private final List<String> textMembers = new ArrayList<>();
    private final List<Number> numberMembers = new ArrayList<>();
    private final List<Boolean> booleanMembers = new ArrayList<>();
    private final List<Object> wholeMembers = new ArrayList<>();
    private final boolean hasWholeMembers;
    /** Whether a deny_if tests a flat array's items joined with spaces ({@link #checkJoined}). */
    private final boolean joins;
    private final boolean existential;
    /** {@code caller.roles contains X}: a role equals X (roles are names, not text: {@code devops} is not {@code ops}). */
    private final boolean membership;
    private final boolean onCaller;
    private final String tooLong;

    /** The path of the caller's roles. */
    static final String CALLER_ROLES = "caller.roles";

    public ArgumentCondition(Condition source, Role role, int valueLengthCap) {
        this.source = source;
        this.path = ArgumentPath.parse(source.path());
        this.role = role;
        this.op = source.op();
        this.value = source.value();
        this.pattern = op == Op.REGEX ? Pattern.compile((String) value) : null;
        this.maxLength = op == Op.MAX_LENGTH ? lengthLimit((Number) value) : -1;
        this.valueLengthCap = valueLengthCap;
        String bare = source.path().startsWith("args.") ? source.path().substring("args.".length()) : source.path();
        // a caller.* condition reads Caller.view(), shown as written (issue 32)
        this.displayPath = source.onCaller() ? source.path() : "args." + bare;
        this.membership = op == Op.CONTAINS && source.path().equals(CALLER_ROLES);
        this.onCaller = source.onCaller();
        this.atPath = new Stop(displayPath, null);
        this.structural = (op == Op.EQ || op == Op.NEQ) && (value == null || value instanceof List || value instanceof Map);
        if (op == Op.IN || op == Op.NOT_IN) {
            for (Object member : (List<?>) value) {
                if (member instanceof String) {
                    textMembers.add((String) member);
                } else if (member instanceof Number) {
                    numberMembers.add((Number) member);
                } else if (member instanceof Boolean) {
                    booleanMembers.add((Boolean) member);
                } else {
                    wholeMembers.add(member);
                }
            }
        }
        this.hasWholeMembers = !wholeMembers.isEmpty();
        boolean readsText = op == Op.REGEX || op == Op.MAX_LENGTH || !textMembers.isEmpty()
                || ((op == Op.EQ || op == Op.NEQ || op == Op.CONTAINS) && value instanceof String);
        // A text without a space found in items joined by spaces lies inside one item, already tested.
        this.joins = readsText && !membership && !(op == Op.CONTAINS && ((String) value).indexOf(' ') < 0);
        this.existential = op == Op.CONTAINS;
        this.tooLong = "a string longer than " + valueLengthCap + " characters cannot be checked";
    }

    /** A limit beyond any length a value can have is no limit; {@code longValue} would keep only its low bits. */
    private static long lengthLimit(Number limit) {
        return JsonValues.compareNumbers(limit, Long.MAX_VALUE) > 0 ? Long.MAX_VALUE : limit.longValue();
    }

    public Condition source() {
        return source;
    }

    /** Whether this condition reads the caller ({@code caller.*}, {@link dev.mcppolicy.engine.Caller#view()}), not the arguments. */
    public boolean onCaller() {
        return onCaller;
    }

    public Role role() {
        return role;
    }

    /** The path as the caller's arguments spell it: {@code args.amount} (a caller condition's as written: {@code caller.roles}). */
    public String displayPath() {
        return displayPath;
    }

    /**
     * Whether this condition stops the call: {@code null} when it lets the call go on (a {@code require}
     * holds, a {@code deny_if} does not match), else where and why. The value at the path itself
     * matching or failing gives one shared {@link Stop} whose {@code detail} is {@code null}.
     */
    public Stop check(Map<String, ?> arguments) {
        Object actual = path.resolve(arguments);
        boolean denying = role == Role.DENY_IF;
        // Scalars first, by class tests only: an interface test (Map, List) that misses costs a scan.
        if (actual instanceof String || actual instanceof Number || actual instanceof Boolean) {
            if (actual instanceof String && ((String) actual).length() > valueLengthCap) {
                return new Stop(displayPath, displayPath + ": " + tooLong);
            }
            if (op == Op.EXISTS) {
                return Boolean.TRUE.equals(value) == denying ? atPath : null;
            }
            if (structural) {
                // a scalar never equals null, an array or an object
                return (op == Op.NEQ) == denying ? atPath : null;
            }
            int outcome = leaf(actual);
            if (outcome == PROBLEM) {
                return new Stop(displayPath, displayPath + ": " + problem(actual));
            }
            return (outcome == TRUE) == denying ? atPath : null;
        }
        if (actual == ArgumentPath.ABSENT) {
            boolean holds = op == Op.EXISTS && Boolean.FALSE.equals(value);
            return holds == denying ? atPath : null;
        }
        if (op == Op.EXISTS) {
            return Boolean.TRUE.equals(value) == denying ? atPath : null;
        }
        if (structural) {
            boolean equal = JsonValues.jsonEquals(actual, value);
            return (equal == (op == Op.EQ)) == denying ? atPath : null;
        }
        if (hasWholeMembers && isAmongWholeMembers(actual)) {
            return (op == Op.IN) == denying ? atPath : null;
        }
        if (actual == null) {
            return denying ? null : atPath;
        }
        if (actual instanceof Map || actual instanceof List) {
            return checkLeaves(actual, denying);
        }
        return new Stop(displayPath, displayPath + ": " + problem(actual));
    }

    private boolean isAmongWholeMembers(Object actual) {
        for (Object member : wholeMembers) {
            if (JsonValues.jsonEquals(member, actual)) {
                return true;
            }
        }
        return false;
    }

    /** TRUE, FALSE or PROBLEM for one scalar leaf (not null). */
    private int leaf(Object leaf) {
        if (!(leaf instanceof String || leaf instanceof Number || leaf instanceof Boolean)) {
            return PROBLEM;
        }
        switch (op) {
            case EQ:
                return equalsOperand(leaf);
            case NEQ:
                return negate(equalsOperand(leaf));
            case IN:
                return among(leaf);
            case NOT_IN:
                return negate(among(leaf));
            case LT:
            case LTE:
            case GT:
            case GTE:
                return compares(leaf);
            case REGEX:
                return pattern.matcher(Readings.text(leaf)).find() ? TRUE : FALSE;
            case CONTAINS:
                return value instanceof String && !membership
                        ? Readings.text(leaf).contains((String) value) ? TRUE : FALSE
                        : equalsOperand(leaf);
            case MAX_LENGTH:
                return isWithinLength(Readings.text(leaf)) ? TRUE : FALSE;
            default:
                throw new IllegalStateException("op " + op + " has no leaf test");
        }
    }

    /** At most {@code maxLength} code points, as JSON Schema's {@code maxLength} counts; a lone surrogate is one. */
    private boolean isWithinLength(String text) {
        int units = text.length();
        if (units <= maxLength) {
            return true;
        }
        // a code point takes one or two UTF-16 units
        return (units + 1) / 2 <= maxLength && text.codePointCount(0, units) <= maxLength;
    }

    private static int negate(int outcome) {
        return outcome == PROBLEM ? PROBLEM : outcome == TRUE ? FALSE : TRUE;
    }

    /** A leaf against a scalar operand, read the operand's way. */
    private int equalsOperand(Object leaf) {
        return equalsMember(leaf, value);
    }

    private static int equalsMember(Object leaf, Object member) {
        if (member instanceof String) {
            return Readings.text(leaf).equals(member) ? TRUE : FALSE;
        }
        if (member instanceof Number) {
            Object number = Readings.number(leaf);
            if (!(number instanceof Number)) {
                return PROBLEM;
            }
            int order = JsonValues.compareNumbers((Number) number, (Number) member);
            return order == JsonValues.UNORDERED ? PROBLEM : order == 0 ? TRUE : FALSE;
        }
        Object bool = Readings.bool(leaf);
        return bool instanceof Boolean ? bool.equals(member) ? TRUE : FALSE : PROBLEM;
    }

    private int among(Object leaf) {
        boolean problem = false;
        for (String member : textMembers) {
            if (equalsMember(leaf, member) == TRUE) {
                return TRUE;
            }
        }
        for (Number member : numberMembers) {
            int outcome = equalsMember(leaf, member);
            if (outcome == TRUE) {
                return TRUE;
            }
            problem |= outcome == PROBLEM;
        }
        for (Boolean member : booleanMembers) {
            int outcome = equalsMember(leaf, member);
            if (outcome == TRUE) {
                return TRUE;
            }
            problem |= outcome == PROBLEM;
        }
        return problem ? PROBLEM : FALSE;
    }

    private int compares(Object leaf) {
        Object number = Readings.number(leaf);
        if (!(number instanceof Number)) {
            return PROBLEM;
        }
        int order = JsonValues.compareNumbers((Number) number, (Number) value);
        if (order == JsonValues.UNORDERED) {
            return PROBLEM;
        }
        switch (op) {
            case LT: return order < 0 ? TRUE : FALSE;
            case LTE: return order <= 0 ? TRUE : FALSE;
            case GT: return order > 0 ? TRUE : FALSE;
            default: return order >= 0 ? TRUE : FALSE;
        }
    }

    /** Why {@link #leaf} said PROBLEM for this leaf: the reading the op needed, and what it found. */
    private String problem(Object leaf) {
        if (!(leaf instanceof String || leaf instanceof Number || leaf instanceof Boolean)) {
            return "a value of Java type " + leaf.getClass().getName() + " cannot be checked";
        }
        if (op == Op.IN || op == Op.NOT_IN) {
            Object number = numberMembers.isEmpty() ? null : Readings.number(leaf);
            return number instanceof String ? (String) number : (String) Readings.bool(leaf);
        }
        if (value instanceof Boolean) {
            return (String) Readings.bool(leaf);
        }
        Object number = Readings.number(leaf);
        return number instanceof String ? (String) number : Readings.NAN;
    }

    /**
     * Searches an array or object at the path. Any role: a leaf that cannot be checked, or a value too
     * deep, wide or long to search, stops the call. A {@code deny_if} stops at the first leaf that matches;
     * a {@code require} at the first that fails, and fails when there is no leaf; {@code contains} in a
     * {@code require} holds at the first leaf that contains the operand (there a leaf that cannot be
     * checked is passed over: it shows nothing either way).
     */
    private Stop checkLeaves(Object container, boolean denying) {
        if (container instanceof List && container instanceof RandomAccess) {
            Stop flat = checkFlatList((List<?>) container, denying);
            if (flat != NOT_FLAT) {
                return flat;
            }
        }
        ArrayDeque<Iterator<?>> open = new ArrayDeque<>();
        ArrayDeque<Object> keys = new ArrayDeque<>();
        open.push(members(container));
        keys.push(container instanceof List ? (Object) (-1) : "");
        int nodes = 1;
        long chars = 0;
        int leaves = 0;
        while (!open.isEmpty()) {
            Iterator<?> members = open.peek();
            if (!members.hasNext()) {
                open.pop();
                keys.pop();
                continue;
            }
            Object member = advance(members, keys);
            if (++nodes > MAX_NODES) {
                return new Stop(displayPath, displayPath + ": a value with more than " + MAX_NODES + " items cannot be checked");
            }
            if (member instanceof Map || member instanceof List) {
                if (open.size() >= MAX_DEPTH) {
                    return new Stop(displayPath, displayPath + ": a value nested more than " + MAX_DEPTH
                            + " levels deep cannot be checked");
                }
                open.push(members(member));
                keys.push(member instanceof List ? (Object) (-1) : "");
                continue;
            }
            if (member == null) {
                continue;
            }
            leaves++;
            if (member instanceof String) {
                chars += ((String) member).length();
                if (chars > valueLengthCap) {
                    return new Stop(displayPath, displayPath + ": a value with more than " + valueLengthCap
                            + " characters of text cannot be checked");
                }
            }
            int outcome = leaf(member);
            if (outcome == PROBLEM && existential && !denying) {
                continue; // it cannot show that the value contains the operand, but another leaf may
            }
            if (outcome == PROBLEM) {
                String at = leafPath(keys);
                return new Stop(at, at + ": " + problem(member));
            }
            if (existential && outcome == TRUE && !denying) {
                return null; // the value contains the operand: the require holds
            }
            if ((outcome == TRUE) == denying && (outcome == TRUE || !existential)) {
                String at = leafPath(keys);
                return new Stop(at, "at " + at);
            }
        }
        if (!denying) {
            // every leaf held, unless there was none; an existential op found no leaf that holds
            return leaves == 0 || existential ? atPath : null;
        }
        return leaves > 0 && joins && container instanceof List ? checkJoined((List<?>) container) : null;
    }

    /** What {@link #checkFlatList} returns when the list holds an array or object: search it in full. */
    private static final Stop NOT_FLAT = new Stop("", "");

    /**
     * {@link #checkLeaves} for the common shape, an array of scalars (an argv, a list of ids), without its
     * stacks: the same leaves in the same order, the same bounds, the same outcome; {@link #NOT_FLAT} as
     * soon as an item is an array or object (the items before it decided nothing).
     */
    private Stop checkFlatList(List<?> items, boolean denying) {
        int leaves = 0;
        long chars = 0;
        for (int i = 0, size = items.size(); i < size; i++) {
            Object item = items.get(i);
            if (i + 2 > MAX_NODES) {
                return new Stop(displayPath, displayPath + ": a value with more than " + MAX_NODES + " items cannot be checked");
            }
            if (item == null) {
                continue;
            }
            if (!(item instanceof String || item instanceof Number || item instanceof Boolean)) {
                if (item instanceof Map || item instanceof List) {
                    return NOT_FLAT;
                }
            } else if (item instanceof String) {
                chars += ((String) item).length();
                if (chars > valueLengthCap) {
                    return new Stop(displayPath, displayPath + ": a value with more than " + valueLengthCap
                            + " characters of text cannot be checked");
                }
            }
            leaves++;
            int outcome = leaf(item);
            if (outcome == PROBLEM && existential && !denying) {
                continue;
            }
            if (outcome == PROBLEM) {
                String at = displayPath + "." + i;
                return new Stop(at, at + ": " + problem(item));
            }
            if (existential && outcome == TRUE && !denying) {
                return null;
            }
            if ((outcome == TRUE) == denying && (outcome == TRUE || !existential)) {
                String at = displayPath + "." + i;
                return new Stop(at, "at " + at);
            }
        }
        if (!denying) {
            return leaves == 0 || existential ? atPath : null;
        }
        return leaves > 0 && joins ? checkJoined(items) : null;
    }

    /**
     * For a {@code deny_if} whose leaves did not match: a flat array's items (nulls left out) joined with
     * spaces, tested as one text, as a tool building a command line from them would see it. Not for an
     * array holding arrays or objects, nor one with a single item (its leaf was tested).
     */
    private Stop checkJoined(List<?> items) {
        if (items.size() < 2) {
            return null;
        }
        StringBuilder joined = new StringBuilder();
        for (Object item : items) {
            if (item instanceof Map || item instanceof List) {
                return null;
            }
            if (item != null) {
                if (joined.length() > 0) {
                    joined.append(' ');
                }
                joined.append(Readings.text(item));
            }
        }
        // No cap here: the items' text is within it, and the spaces add one char per item at most.
        return leaf(joined.toString()) == TRUE ? new Stop(displayPath, "at " + displayPath + JOINED) : null;
    }

    private static Iterator<?> members(Object container) {
        return container instanceof Map ? ((Map<?, ?>) container).entrySet().iterator() : ((List<?>) container).iterator();
    }

    /** The next member of the open container, keeping its key (or index) on top of {@code keys}. */
    private static Object advance(Iterator<?> members, ArrayDeque<Object> keys) {
        Object next = members.next();
        Object key = keys.pop();
        if (key instanceof Integer) {
            keys.push((Integer) key + 1);
            return next;
        }
        Map.Entry<?, ?> entry = (Map.Entry<?, ?>) next;
        keys.push(String.valueOf(entry.getKey()));
        return entry.getValue();
    }

    /** The display path of the leaf just reached: the condition's path, then each key or index below it. */
    private String leafPath(ArrayDeque<Object> keys) {
        StringBuilder at = new StringBuilder(displayPath);
        Iterator<Object> outermostFirst = keys.descendingIterator();
        while (outermostFirst.hasNext() && at.length() < 256) {
            Object key = outermostFirst.next();
            if (key instanceof Integer) {
                at.append('.').append(key);
            } else if (isPlainKey((String) key)) {
                at.append('.').append(key);
            } else {
                at.append("[\"");
                DisplayText.appendQuoted((String) key, '"', 64, at);
                at.append("\"]");
            }
        }
        return at.toString();
    }

    private static boolean isPlainKey(String key) {
        if (key.isEmpty() || key.length() > 64) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** The condition as a reader would write it: {@code command regex "^(ls|cat)( .*)?$"}. */
    public String describe() {
        StringBuilder text = new StringBuilder(source.path()).append(' ').append(op.word());
        if (op != Op.EXISTS || Boolean.FALSE.equals(value)) {
            text.append(' ');
            CanonicalJson.write(value, text);
        }
        return text.toString();
    }
}
