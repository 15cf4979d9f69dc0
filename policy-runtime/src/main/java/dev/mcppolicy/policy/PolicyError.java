package dev.mcppolicy.policy;

/**
 * One thing wrong with a policy file.
 *
 * @param pointer JSON Pointer of the offending value ({@code /tools/run_command/limits/0/window}),
 *     {@code ""} for the whole document
 * @param line 1-based line, or 0 when unknown
 * @param column 1-based column, or 0 when unknown
 * @param message what is wrong and what was expected
 */
public record PolicyError(String pointer, int line, int column, String message) implements java.io.Serializable {

    /** {@code /tools/x/limits/0/window (line 9, column 47): expected ...}. */
    @Override
    public String toString() {
        String where = pointer.isEmpty() ? "(document)" : pointer;
        if (line > 0) {
            where += " (line " + line + ", column " + column + ")";
        }
        return where + ": " + message;
    }
}
