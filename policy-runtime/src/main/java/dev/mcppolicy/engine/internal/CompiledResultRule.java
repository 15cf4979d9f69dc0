package dev.mcppolicy.engine.internal;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.mcppolicy.condition.ArgumentCondition;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.ResultJudge;
import dev.mcppolicy.policy.Mode;
import dev.mcppolicy.policy.ResultRule;
import dev.mcppolicy.result.SecretDetectors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rule's {@code result} (SPEC §13), ready to judge: {@code max_bytes} first, counted without copying
 * anything, so a 100 MB answer is refused after reading its lengths; then {@code deny_if} on the answer
 * as the server gave it; then the redactions, in policy order, each over
 * every text part and every string leaf of the structured content. Every step is linear in the size
 * of the answer (RE2/J), and the answer is bounded by {@code max_bytes} before any of them runs.
 */
final class CompiledResultRule implements ResultJudge {
    /** The deepest and widest structured content is walked; deeper or wider cannot be judged. */
    static final int MAX_DEPTH = ArgumentCondition.MAX_DEPTH;
    static final int MAX_NODES = 100_000;

    private final String pointer;
    private final Mode mode;
    private final long maxBytes;
    private final Decision tooLarge;
    private final ArgumentCondition[] denyIf;
    private final boolean[] onText;
    private final Decision[] denied;
    private final String[] deniedReasons;
    private final Pattern[] patterns;
    private final String[] replacements;
    private final String[] names;
    private final boolean redacts;
    /** The built-in detectors when the rule lists {@code secrets}: they run first, their counts first in {@code counts}. */
    private final SecretDetectors secrets;
    private final int base;

    CompiledResultRule(ResultRule rule, String rulePointer, String ruleReason, Mode mode) {
        this.pointer = rulePointer + "/result";
        this.mode = mode;
        this.maxBytes = rule.maxBytes();
        this.tooLarge = Decisions.deny(mode, pointer + "/max_bytes", "the answer is larger than max_bytes ("
                + maxBytes + " bytes)", 0);
        int cap = (int) Math.min(maxBytes, Integer.MAX_VALUE);
        List<ResultRule.ResultCondition> conditions = rule.denyIf();
        this.denyIf = new ArgumentCondition[conditions.size()];
        this.onText = new boolean[conditions.size()];
        this.denied = new Decision[conditions.size()];
        this.deniedReasons = new String[conditions.size()];
        for (int i = 0; i < denyIf.length; i++) {
            denyIf[i] = new ArgumentCondition(conditions.get(i).condition(), ArgumentCondition.Role.DENY_IF, cap);
            onText[i] = conditions.get(i).onText();
            deniedReasons[i] = ruleReason != null ? ruleReason : "the answer is denied by condition: " + describe(i);
            denied[i] = Decisions.deny(mode, pointer + "/deny_if/" + i, deniedReasons[i], 0);
        }
        List<ResultRule.Redaction> redactions = rule.redactions();
        this.patterns = new Pattern[redactions.size()];
        this.replacements = new String[redactions.size()];
        this.names = new String[redactions.size()];
        for (int i = 0; i < patterns.length; i++) {
            patterns[i] = Pattern.compile(redactions.get(i).regex());
            replacements[i] = redactions.get(i).with();
            names[i] = redactions.get(i).name();
        }
        this.secrets = rule.secrets() ? SecretDetectors.builtIn() : null;
        this.base = secrets == null ? 0 : secrets.size();
        this.redacts = patterns.length > 0 || secrets != null;
    }

    private String describe(int i) {
        String described = denyIf[i].describe();
        return onText[i] ? described.replaceFirst("^args\\.text ", "text ") : described.replaceFirst("^args\\.", "structured.");
    }

    @Override
    public String pointer() {
        return pointer;
    }

    @Override
    public Verdict judge(Answer answer) {
        try {
            return judgeOrThrow(answer);
        } catch (RuntimeException | StackOverflowError e) {
            return new Verdict(Decision.error("the answer cannot be judged: " + e.getClass().getSimpleName()), answer.texts(),
                    answer.structured(), null);
        }
    }

    private Verdict judgeOrThrow(Answer answer) {
        List<String> texts = answer.texts();
        Object structured = answer.structured();
        long budget = maxBytes - answer.otherBytes();
        // chars first (a length read per string), exact UTF-8 bytes only when the chars alone do not settle it
        long[] chars = {0, MAX_NODES, 0};
        if (!size(texts, structured, chars, false)) {
            String why = chars[2] != 0 ? "its structured content holds a value that is not JSON (an object the app had not written as JSON)"
                    : "its structured content nests deeper than " + MAX_DEPTH + " levels or holds more than " + MAX_NODES + " values";
            return new Verdict(Decisions.deny(mode, pointer, "the answer cannot be judged: " + why, 0), texts, structured, null);
        }
        if (chars[0] > budget) {
            return new Verdict(tooLarge, texts, structured, null);
        }
        if (3 * chars[0] > budget) {
            long[] bytes = {0, MAX_NODES, 0};
            size(texts, structured, bytes, true);
            if (bytes[0] > budget) {
                return new Verdict(tooLarge, texts, structured, null);
            }
        }
        Decision monitored = null;
        if (denyIf.length > 0) {
            Map<String, Object> textView = Map.of(ResultRule.ResultCondition.TEXT_PATH, texts);
            for (int i = 0; i < denyIf.length; i++) {
                ArgumentCondition.Stop stop;
                if (onText[i]) {
                    stop = denyIf[i].check(textView);
                } else {
                    stop = structured instanceof Map<?, ?> map ? denyIf[i].check(cast(map)) : null;
                }
                if (stop != null) {
                    Decision decision = stop.detail() == null ? denied[i]
                            : Decisions.deny(mode, denied[i].rule(), deniedReasons[i] + " (" + stop.detail()
                                    .replace("args." + ResultRule.ResultCondition.TEXT_PATH, "text").replace("args.", "structured.") + ")", 0);
                    if (decision.isDenied()) {
                        return new Verdict(decision, texts, structured, null);
                    }
                    monitored = monitored == null ? decision : monitored;
                }
            }
        }
        if (!redacts) {
            return new Verdict(monitored, texts, structured, null);
        }
        int[] counts = new int[base + patterns.length];
        List<String> redactedTexts = texts;
        for (int i = 0; i < texts.size(); i++) {
            String text = texts.get(i);
            String redacted = redact(text, counts);
            if (redacted != text) {
                if (redactedTexts == texts) {
                    redactedTexts = new ArrayList<>(texts);
                }
                redactedTexts.set(i, redacted);
            }
        }
        Object redactedStructured = structured == null ? null : redactLeaves(structured, counts);
        return new Verdict(monitored, redactedTexts, redactedStructured, summary(counts));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> cast(Map<?, ?> map) {
        return (Map<String, ?>) map;
    }

    private String redact(String text, int[] counts) {
        String out = secrets == null ? text : secrets.redact(text, counts);
        for (int i = 0; i < patterns.length; i++) {
            Matcher matcher = patterns[i].matcher(out);
            if (!matcher.find()) {
                continue;
            }
            StringBuilder rewritten = new StringBuilder(out.length());
            int from = 0;
            do {
                if (matcher.end() == matcher.start()) {
                    continue;
                }
                rewritten.append(out, from, matcher.start()).append(replacements[i]);
                from = matcher.end();
                counts[base + i]++;
            } while (matcher.find());
            out = rewritten.append(out, from, out.length()).toString();
        }
        return out;
    }

    /** The same value where nothing in it was redacted; else a copy with the redacted strings. */
    private Object redactLeaves(Object value, int[] counts) {
        if (value instanceof String text) {
            return redact(text, counts);
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = null;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                Object redacted = redactLeaves(entry.getValue(), counts);
                if (redacted != entry.getValue() && copy == null) {
                    copy = new LinkedHashMap<>(map);
                }
                if (copy != null) {
                    copy.put(entry.getKey(), redacted);
                }
            }
            return copy == null ? map : copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = null;
            for (int i = 0; i < list.size(); i++) {
                Object item = list.get(i);
                Object redacted = redactLeaves(item, counts);
                if (redacted != item && copy == null) {
                    copy = new ArrayList<>(list);
                }
                if (copy != null) {
                    copy.set(i, redacted);
                }
            }
            return copy == null ? list : copy;
        }
        return value;
    }

    private String summary(int[] counts) {
        StringBuilder summary = null;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0) {
                continue;
            }
            summary = summary == null ? new StringBuilder() : summary.append(',');
            summary.append(i < base ? secrets.id(i) : names[i - base]).append(':').append(counts[i]);
        }
        return summary == null ? null : summary.toString();
    }

    /** Adds the chars (or UTF-8 bytes) of the texts and of the structured content's strings to {@code total[0]}. */
    private static boolean size(List<String> texts, Object structured, long[] total, boolean exact) {
        for (String text : texts) {
            total[0] += exact ? utf8Length(text) : text.length();
        }
        return structured == null || size(structured, 0, total, exact);
    }

    /**
     * Walks at most {@code total[1]} values {@value #MAX_DEPTH} levels deep; {@code false} when that is not enough, or
     * (with {@code total[2]} set) at a value that is not JSON-like: an object its redactions could not see into, so
     * it is never let through unread.
     */
    private static boolean size(Object value, int depth, long[] total, boolean exact) {
        if (--total[1] < 0 || depth > MAX_DEPTH) {
            return false;
        }
        if (value != null && !(value instanceof String || value instanceof Map<?, ?> || value instanceof List<?>
                || value instanceof Number || value instanceof Boolean)) {
            total[2] = 1;
            return false;
        }
        if (value instanceof String text) {
            total[0] += exact ? utf8Length(text) : text.length();
        } else if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (entry.getKey() instanceof String key) {
                    total[0] += exact ? utf8Length(key) : key.length();
                }
                if (!size(entry.getValue(), depth + 1, total, exact)) {
                    return false;
                }
            }
        } else if (value instanceof List<?> list) {
            for (Object item : list) {
                if (!size(item, depth + 1, total, exact)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The UTF-8 length of {@code text}; a lone surrogate counts as the 3 bytes of U+FFFD. */
    static long utf8Length(String text) {
        int chars = text.length();
        long bytes = 0;
        for (int i = 0; i < chars; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < chars && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
