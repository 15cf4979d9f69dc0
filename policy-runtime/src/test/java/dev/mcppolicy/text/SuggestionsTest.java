package dev.mcppolicy.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
    private static final List<String> KEYS = List.of("action", "reason", "require", "deny_if", "limits", "arguments");

    @Test
    void suggestsAKeyWithinTwoEdits() {
        assertThat(Suggestions.closest("acton", KEYS)).isEqualTo("action");
        assertThat(Suggestions.closest("reqiure", KEYS)).isEqualTo("require");
        assertThat(Suggestions.closest("deny-if", KEYS)).isEqualTo("deny_if");
        assertThat(Suggestions.closest("limit", KEYS)).isEqualTo("limits");
        assertThat(Suggestions.closest("argumnts", KEYS)).isEqualTo("arguments");
    }

    @Test
    void suggestsNothingThreeOrMoreEditsAway() {
        assertThat(Suggestions.closest("denyif_x", KEYS)).isNull();
        assertThat(Suggestions.closest("rules", KEYS)).isNull();
        assertThat(Suggestions.closest("", KEYS)).isNull();
    }

    @Test
    void prefersTheClosestAndThenTheFirstListed() {
        assertThat(Suggestions.closest("reasons", KEYS)).isEqualTo("reason");
        assertThat(Suggestions.closest("ab", List.of("ax", "ay"))).isEqualTo("ax");
    }

    @Test
    void isCaseSensitiveButCountsACaseSlipAsOneEdit() {
        assertThat(Suggestions.closest("Action", KEYS)).isEqualTo("action");
    }

    @Test
    void suggestsNothingForAHugeKeyWithoutAnEditDistanceOverIt() {
        String huge = "a".repeat(10 * 1024 * 1024);
        assertThat(dev.mcppolicy.Hostile.onSmallStack(() -> Suggestions.closest(huge, KEYS))).isNull();
        assertThat(Suggestions.closest("actionxx", KEYS)).as("two edits longer still counts").isEqualTo("action");
    }
}
