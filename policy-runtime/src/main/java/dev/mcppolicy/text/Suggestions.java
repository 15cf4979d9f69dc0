package dev.mcppolicy.text;

import java.util.List;

/** "Did you mean" for misspelt keys (policy keys, agent options): the closest allowed word within two edits. */
public final class Suggestions {
    private Suggestions() {
    }

    /** The allowed word closest to {@code word} within two edits (Levenshtein), or {@code null}. */
    public static String closest(String word, List<String> allowed) {
        String best = null;
        int bestDistance = 3;
        for (String candidate : allowed) {
            if (Math.abs(word.length() - candidate.length()) >= bestDistance) {
                continue; // at least that many edits: a long misspelling costs no quadratic work
            }
            int distance = distance(word, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best;
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
