package dev.mcppolicy.schema;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code $ref} within one document: {@code #}, and {@code #/...} JSON Pointers ({@code ~0}, {@code ~1},
 * percent-escapes as in a URI fragment) to a place the compiler compiled a subschema. A reference out of
 * the document, to an anchor, or to a place that holds no subschema is a problem, as is a loop of
 * references that applies schemas to the same value forever.
 */
final class References {
    /** The most chars of a reference or pointer a message shows. */
    private static final int SHOWN_CAP = 200;

    /** A {@code $ref} read but not yet linked: the node it sits in, its text, and where the keyword is. */
    record Pending(Subschema from, String text, String at) {
    }

    private References() {
    }

    /** Links each reference to its target's node, then reports every loop among the linked schemas. */
    static void link(List<Pending> references, Map<String, Subschema> byPointer, JsonSchema.Problems problems) {
        if (references.isEmpty()) {
            return;
        }
        for (Pending reference : references) {
            String pointer;
            try {
                pointer = pointerOf(reference.text());
            } catch (IllegalArgumentException e) {
                problems.report(reference.at(), e.getMessage());
                continue;
            }
            Subschema target = byPointer.get(pointer);
            if (target == null) {
                problems.report(reference.at(), "$ref '" + shown(reference.text()) + "' points at no subschema of this schema");
            } else {
                reference.from().ref = target;
            }
        }
        reportLoops(byPointer, problems);
    }

    /** The JSON Pointer a reference names, as the compiler spells the places it compiles. */
    static String pointerOf(String reference) {
        if (!reference.startsWith("#")) {
            throw new IllegalArgumentException("$ref '" + shown(reference) + "' refers outside this schema; only references "
                    + "within it (#, #/$defs/name, #/definitions/name, #/...) are supported");
        }
        String pointer = decodePercents(reference.substring(1), reference);
        if (!pointer.isEmpty() && !pointer.startsWith("/")) {
            throw new IllegalArgumentException("$ref '" + shown(reference) + "' names an anchor; only JSON Pointer references "
                    + "(#, #/...) are supported");
        }
        for (int i = 0; i < pointer.length(); i++) {
            if (pointer.charAt(i) == '~' && (i + 1 == pointer.length() || "01".indexOf(pointer.charAt(i + 1)) < 0)) {
                throw new IllegalArgumentException("$ref '" + shown(reference) + "' is not a valid JSON Pointer: '~' must be "
                        + "followed by 0 or 1");
            }
        }
        return pointer;
    }

    /** A URI fragment's percent-escapes decoded as UTF-8. */
    private static String decodePercents(String fragment, String reference) {
        if (fragment.indexOf('%') < 0) {
            return fragment;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(fragment.length());
        int i = 0;
        while (i < fragment.length()) {
            int percent = fragment.indexOf('%', i);
            int end = percent < 0 ? fragment.length() : percent;
            bytes.writeBytes(fragment.substring(i, end).getBytes(StandardCharsets.UTF_8));
            if (percent < 0) {
                break;
            }
            int high = percent + 2 < fragment.length() ? Character.digit(fragment.charAt(percent + 1), 16) : -1;
            int low = high < 0 ? -1 : Character.digit(fragment.charAt(percent + 2), 16);
            if (low < 0) {
                throw new IllegalArgumentException("$ref '" + shown(reference) + "' has a '%' that is not followed by two hex digits");
            }
            bytes.write(high * 16 + low);
            i = percent + 3;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("$ref '" + shown(reference) + "' has percent-escapes that are not UTF-8");
        }
    }

    /**
     * Reports each loop of schemas applied to one value ({@code $ref}, {@code allOf}, {@code anyOf},
     * {@code oneOf}, {@code not}, {@code if}/{@code then}/{@code else}, {@code dependentSchemas}):
     * checking it would never end. A loop that goes through {@code properties}, {@code items} and the
     * like descends into the value at each turn, ends with it, and is a recursive schema. Depth-first
     * with a stack of its own, so a chain of any length is followed without a deep Java stack.
     */
    private static void reportLoops(Map<String, Subschema> byPointer, JsonSchema.Problems problems) {
        Map<Subschema, String> pointers = new IdentityHashMap<>();
        byPointer.forEach((pointer, node) -> pointers.put(node, pointer));
        Map<Subschema, Boolean> finished = new IdentityHashMap<>();
        for (Subschema start : byPointer.values()) {
            if (finished.containsKey(start)) {
                continue;
            }
            ArrayDeque<Visit> path = new ArrayDeque<>();
            path.push(new Visit(start));
            finished.put(start, Boolean.FALSE);
            while (!path.isEmpty()) {
                Visit visit = path.peek();
                if (visit.next == visit.targets.size()) {
                    finished.put(visit.node, Boolean.TRUE);
                    path.pop();
                    continue;
                }
                Subschema target = visit.targets.get(visit.next++);
                Boolean done = finished.get(target);
                if (done == null) {
                    finished.put(target, Boolean.FALSE);
                    path.push(new Visit(target));
                } else if (!done) {
                    String from = pointers.get(visit.node) + (visit.node.ref == target ? "/$ref" : "");
                    problems.report(from, "loops back to '#" + shown(pointers.get(target)) + "' through $ref without "
                            + "descending into the value, so checking it would never end");
                }
            }
        }
    }

    /** A node on the depth-first path, with the schemas it applies in place and how many of them were followed. */
    private static final class Visit {
        final Subschema node;
        final List<Subschema> targets = new ArrayList<>();
        int next;

        Visit(Subschema node) {
            this.node = node;
            node.forEachInPlace(targets::add);
        }
    }

    private static String shown(String text) {
        return JsonSchema.shown(text, SHOWN_CAP);
    }
}
