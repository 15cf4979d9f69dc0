package dev.mcppolicy.policy;

import dev.mcppolicy.text.DisplayText;

/**
 * Something a valid policy allows that it probably should not, found by {@link PolicyLint}.
 *
 * @param pointer JSON Pointer of the value the warning is about ({@code /tools/run_command/deny_if}),
 *     exactly as the policy spells it, so it can be compared with a decision's rule
 * @param message what is weak and what to do; one line, policy text in it escaped as {@link DisplayText} does
 */
public record PolicyWarning(String pointer, String message) {

    /**
     * {@code /tools/run_command/deny_if: 'run_command' looks like ...}, always one line: the pointer is
     * written as the body of a JSON string ({@code "} and {@code \} escaped with a backslash, unsafe code
     * points as <code>&#92;uXXXX</code>), since its keys come from the policy file.
     */
    @Override
    public String toString() {
        StringBuilder line = new StringBuilder(pointer.length() + message.length() + 2);
        DisplayText.appendQuoted(pointer, '"', Integer.MAX_VALUE, line);
        return line.append(": ").append(message).toString();
    }
}
