package dev.mcppolicy.scan;

import dev.mcppolicy.policy.ToolRisk;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Gives a scanned tool its risk category (SPEC §9) and says why. The MCP tool annotations decide when
 * they speak ({@code readOnlyHint: true} is READ; {@code destructiveHint: true}, or {@code readOnlyHint:
 * false} with no {@code destructiveHint}, whose default is true, is DESTRUCTIVE; {@code destructiveHint:
 * false} is WRITE), but a hint never lowers what the tool's name shows beyond WRITE: annotations are the
 * server's own claims, so {@code delete_user} marked read-only stays DESTRUCTIVE, while {@code set_view}
 * marked read-only is READ. A name that shows EXECUTE stays EXECUTE even when the hints say destructive
 * (a command runner can always destroy: its rule is the execute one, which checks its arguments and
 * rate-limits it, as catalogues of sandbox tools advise for {@code run_command}). Without hints, the name decides by {@link ToolRisk}'s words; a name with no
 * listed word leaves it to the description's first word, read as a verb ({@code Deletes ...}, {@code Runs ...}):
 * only that word, since the rest of a description names what a tool works on ("Lists the system's
 * processes"), not what it does. {@code idempotentHint} and {@code openWorldHint}
 * change no category and are only repeated in the reason.
 */
public final class RiskCategorizer {
    private RiskCategorizer() {
    }

    /** A tool, its category and the evidence for it, in words a policy's {@code reason} can carry. */
    public record Categorized(ScannedTool tool, ToolRisk risk, String evidence) {
    }

    public static Categorized categorize(ScannedTool tool) {
        ToolRisk.Match byName = ToolRisk.match(tool.name());
        Hints hints = Hints.of(tool.annotations());
        if (hints.category() != null) {
            String said = "annotations say " + hints.deciding() + hints.others();
            if (byName.risk() == ToolRisk.EXECUTE && hints.category() == ToolRisk.DESTRUCTIVE) {
                return new Categorized(tool, ToolRisk.EXECUTE, said + "; the name has '" + byName.word()
                        + "', and a tool that runs commands gets the execute rule");
            }
            if (byName.risk().riskierThan(hints.category()) && byName.risk() != ToolRisk.WRITE) {
                return new Categorized(tool, byName.risk(), said + ", but the name has '" + byName.word()
                        + "', and a server's hint does not lower the risk its name shows");
            }
            return new Categorized(tool, hints.category(), said);
        }
        String noHints = tool.annotations() == null || tool.annotations().isEmpty() ? "no annotations"
                : "no readOnlyHint or destructiveHint" + hints.others();
        if (byName.risk() != ToolRisk.READ) {
            return new Categorized(tool, byName.risk(), noHints + "; the name has '" + byName.word() + "'");
        }
        String verb = leadingWord(tool.description());
        ToolRisk.Match byDescription = verb(verb);
        if (byDescription.risk() != ToolRisk.READ) {
            return new Categorized(tool, byDescription.risk(), noHints + "; the description starts with '" + verb + "'");
        }
        return new Categorized(tool, ToolRisk.READ, noHints + ", and no word of risk in the name or at the start of the description");
    }

    /** The first run of letters of {@code text}, lower-cased, or the empty string. */
    static String leadingWord(String text) {
        if (text == null) {
            return "";
        }
        int start = 0;
        while (start < text.length() && !Character.isLetter(text.charAt(start))) {
            start++;
        }
        int end = start;
        while (end < text.length() && Character.isLetter(text.charAt(end))) {
            end++;
        }
        return text.substring(start, end).toLowerCase(Locale.ROOT);
    }

    /** The category of a description's first word, read as a verb: {@code deletes} and {@code pushes} as {@code delete}, {@code push}. */
    private static ToolRisk.Match verb(String word) {
        ToolRisk.Match match = ToolRisk.match(word);
        if (match.risk() == ToolRisk.READ && word.endsWith("s")) {
            match = ToolRisk.match(word.substring(0, word.length() - 1));
            if (match.risk() == ToolRisk.READ && word.endsWith("es")) {
                match = ToolRisk.match(word.substring(0, word.length() - 2));
            }
        }
        return match;
    }

    /** The four hints of an {@code annotations} object; a hint that is not a JSON boolean counts as absent. */
    private record Hints(Boolean readOnly, Boolean destructive, Boolean idempotent, Boolean openWorld) {
        static Hints of(Map<String, ?> annotations) {
            if (annotations == null) {
                return new Hints(null, null, null, null);
            }
            return new Hints(flag(annotations, "readOnlyHint"), flag(annotations, "destructiveHint"),
                    flag(annotations, "idempotentHint"), flag(annotations, "openWorldHint"));
        }

        private static Boolean flag(Map<String, ?> annotations, String key) {
            return annotations.get(key) instanceof Boolean value ? value : null;
        }

        ToolRisk category() {
            if (Boolean.TRUE.equals(readOnly)) {
                return ToolRisk.READ;
            }
            if (destructive != null) {
                return destructive ? ToolRisk.DESTRUCTIVE : ToolRisk.WRITE;
            }
            return Boolean.FALSE.equals(readOnly) ? ToolRisk.DESTRUCTIVE : null;
        }

        String deciding() {
            if (Boolean.TRUE.equals(readOnly)) {
                return "readOnlyHint=true";
            }
            if (destructive != null) {
                return (readOnly != null ? "readOnlyHint=false, " : "") + "destructiveHint=" + destructive;
            }
            return "readOnlyHint=false and no destructiveHint (whose default is true)";
        }

        String others() {
            List<String> set = new ArrayList<>();
            if (idempotent != null) {
                set.add("idempotentHint=" + idempotent);
            }
            if (openWorld != null) {
                set.add("openWorldHint=" + openWorld);
            }
            return set.isEmpty() ? "" : " (" + String.join(", ", set) + ")";
        }
    }
}
