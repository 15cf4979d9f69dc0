package dev.mcppolicy.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a tool may do, guessed from the words of its name (SPEC §9's risk categories). A heuristic:
 * it reads names, never schemas or behaviour, so it can be wrong both ways, and nothing may rely on it
 * to allow a call. {@link PolicyLint} uses it to pick the rules it questions; a scan of a server's
 * tools can use it to suggest each tool's category.
 *
 * <p>A name (or a glob in a policy key) splits into words at every character that is not a letter
 * ({@code _ - . / :}, spaces, digits, the glob characters {@code *} and {@code ?}, ...) and at
 * camelCase boundaries ({@code dropTable} is {@code drop table}, {@code HTTPRequest} is
 * {@code http request}); words are lower-cased. A word counts only if it equals a listed word: there
 * is no substring match and no stemming, so {@code format_date} is READ (no listed word), {@code
 * list_runs} is READ ({@code runs} is not {@code run}) and {@code format_disk} is READ too (neither
 * {@code format} nor {@code disk} is listed, since {@code format} alone would make {@code format_date}
 * destructive). When several words match, the riskiest wins: DESTRUCTIVE, then EXECUTE, FINANCIAL,
 * WRITE; a name with no listed word, the empty name and {@code *} are READ.
 */
public enum ToolRisk {
    /** No listed word: reads, lists, gets, searches, or something this heuristic cannot tell. */
    READ(0),
    /** Creates or changes state: {@code write create update put post set edit modify insert upload send
     * move rename save append patch commit push deploy publish add}. */
    WRITE(1, "write", "create", "update", "put", "post", "set", "edit", "modify", "insert", "upload", "send",
            "move", "rename", "save", "append", "patch", "commit", "push", "deploy", "publish", "add"),
    /** Runs code or commands: {@code exec execute run shell bash sh zsh cmd command terminal eval script
     * spawn process subprocess system powershell pwsh python node code sandbox invoke}. */
    EXECUTE(3, "exec", "execute", "run", "shell", "bash", "sh", "zsh", "cmd", "command", "terminal", "eval",
            "script", "spawn", "process", "subprocess", "system", "powershell", "pwsh", "python", "node", "code",
            "sandbox", "invoke"),
    /** Destroys or revokes: {@code delete remove rm drop destroy truncate purge wipe erase kill terminate
     * uninstall revoke overwrite reset unlink rmdir shred}. */
    DESTRUCTIVE(4, "delete", "remove", "rm", "drop", "destroy", "truncate", "purge", "wipe", "erase", "kill",
            "terminate", "uninstall", "revoke", "overwrite", "reset", "unlink", "rmdir", "shred"),
    /** Moves money: {@code pay payment payout transfer wire charge refund purchase buy invoice money withdraw
     * stripe checkout}. */
    FINANCIAL(2, "pay", "payment", "payout", "transfer", "wire", "charge", "refund", "purchase", "buy", "invoice",
            "money", "withdraw", "stripe", "checkout");

    private final int precedence;
    private final Set<String> words;

    ToolRisk(int precedence, String... words) {
        this.precedence = precedence;
        this.words = Set.of(words);
    }

    /** The category of a tool name or a policy key's glob ({@code exec_*}), by the rules above. */
    public static ToolRisk classify(String toolNameOrGlob) {
        return match(toolNameOrGlob).risk();
    }

    /** The category of {@code text} and the first word that gave it ({@code null} for READ), by the rules above. */
    public static Match match(String text) {
        ToolRisk risk = READ;
        String matched = null;
        for (String word : words(text)) {
            for (ToolRisk candidate : values()) {
                if (candidate.precedence > risk.precedence && candidate.words.contains(word)) {
                    risk = candidate;
                    matched = word;
                }
            }
        }
        return new Match(risk, matched);
    }

    /** Whether this category is riskier than {@code other} (DESTRUCTIVE, then EXECUTE, FINANCIAL, WRITE, READ). */
    public boolean riskierThan(ToolRisk other) {
        return precedence > other.precedence;
    }

    /** A category and the listed word that gave it; {@code word} is {@code null} when no listed word matched. */
    public record Match(ToolRisk risk, String word) {
    }

    /** The lower-cased words of {@code name}: runs of letters, split again where camelCase starts a word. */
    static List<String> words(String name) {
        List<String> words = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            int next = i + Character.charCount(c);
            if (!Character.isLetter(c)) {
                addWord(name, start, i, words);
                start = -1;
            } else if (start < 0) {
                start = i;
            } else if (Character.isUpperCase(c) && startsCamelWord(name, i, next)) {
                addWord(name, start, i, words);
                start = i;
            }
            i = next;
        }
        addWord(name, start, name.length(), words);
        return words;
    }

    /** Whether the upper-case letter at {@code at} starts a word: after a lower-case letter, or ends an acronym. */
    private static boolean startsCamelWord(String name, int at, int next) {
        int previous = name.codePointBefore(at);
        if (!Character.isUpperCase(previous)) {
            return true;
        }
        return next < name.length() && Character.isLowerCase(name.codePointAt(next));
    }

    private static void addWord(String name, int start, int end, List<String> words) {
        if (start >= 0 && start < end) {
            words.add(name.substring(start, end).toLowerCase(Locale.ROOT));
        }
    }
}
