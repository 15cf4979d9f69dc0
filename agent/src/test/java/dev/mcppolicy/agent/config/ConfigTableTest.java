package dev.mcppolicy.agent.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/configuration.md's table of keys is the declared list ({@link ConfigKey}): same keys in the same order, defaults and values. */
class ConfigTableTest {
    private static final Path CONFIGURATION = Path.of("../docs/configuration.md");
    private static final Pattern CODE = Pattern.compile("`([^`]*)`");

    @Test
    void configurationPageTableIsTheDeclaredList() throws Exception {
        List<String[]> rows = table(Files.readAllLines(CONFIGURATION));
        List<String> documented = new ArrayList<>();
        List<String> declared = new ArrayList<>();
        for (String[] row : rows) {
            documented.add(unquoted(row[0]) + " | default " + unquoted(row[1]) + " | values " + row[2]);
        }
        for (ConfigKey key : ConfigKey.values()) {
            declared.add(key.key() + " | default " + key.defaultText() + " | values " + valuesCell(key));
        }
        assertThat(documented).as("docs/configuration.md ## Keys, against ConfigKey").containsExactlyElementsOf(declared);
    }

    /** As docs/configuration.md writes a key's values: each allowed value as code, or "a path". */
    private static String valuesCell(ConfigKey key) {
        if (key.type() == ConfigKey.Type.DURATION) {
            return "a duration: `500ms`, `2s`, `1m` (100 ms to 1 h)";
        }
        if (key.type() == ConfigKey.Type.ADDRESS) {
            return "`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`";
        }
        if (key.type() == ConfigKey.Type.SECRET) {
            return "a string of 16 characters or more";
        }
        if (key.type() == ConfigKey.Type.COUNT) {
            return "a whole number from 1 to 10000";
        }
        if (key.type() == ConfigKey.Type.STORE) {
            return "`memory`, `redis://[user:password@]host:port[/db]`, `rediss://...`";
        }
        if (key.type() == ConfigKey.Type.PASSWORD) {
            return "a string";
        }
        if (key.type() == ConfigKey.Type.TIMEOUT) {
            return "a duration: `50ms`, `1s` (1 ms to 10 s)";
        }
        if (key.type() == ConfigKey.Type.TEXT) {
            return "1 to 100 printable characters, no spaces";
        }
        if (key.allowed().isEmpty()) {
            return "a path";
        }
        List<String> values = new ArrayList<>();
        for (String value : key.allowed()) {
            values.add("`" + value + "`");
        }
        return String.join(", ", values);
    }

    /** The rows of the first table under "## Keys", whose header is key | default | values | meaning. */
    private static List<String[]> table(List<String> lines) {
        int at = lines.indexOf("## Keys");
        assertThat(at).as("docs/configuration.md has a ## Keys section").isNotNegative();
        while (!lines.get(at).startsWith("|")) {
            at++;
        }
        assertThat(cells(lines.get(at))).as("the table's header").containsExactly("key", "default", "values", "meaning");
        List<String[]> rows = new ArrayList<>();
        for (int i = at + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            rows.add(cells(lines.get(i)));
        }
        return rows;
    }

    private static String[] cells(String row) {
        String[] cells = row.substring(1, row.length() - (row.endsWith("|") ? 1 : 0)).split("(?<!\\\\)\\|", -1);
        for (int i = 0; i < cells.length; i++) {
            cells[i] = cells[i].trim();
        }
        return cells;
    }

    private static String unquoted(String cell) {
        Matcher code = CODE.matcher(cell);
        return code.replaceAll("$1");
    }
}
