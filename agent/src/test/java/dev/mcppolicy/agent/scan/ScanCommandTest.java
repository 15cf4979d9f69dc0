package dev.mcppolicy.agent.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScanCommandTest {

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', value = {
        "''                                        | scan: name the server: -- COMMAND ARGS... (stdio) or --url URL (streamable HTTP)",
        "--                                        | scan: name the server: -- COMMAND ARGS... (stdio) or --url URL (streamable HTTP)",
        "server.jar                                | scan: unknown option 'server.jar'; put the server's command after --",
        "--format xml -- x                         | scan: --format is json or yaml, not 'xml'",
        "--timeout soon -- x                       | scan: --timeout takes a duration like 10s or 1m, not 'soon'",
        "--timeout                                 | scan: --timeout needs a value",
        "--url ftp://host/mcp                      | scan: --url takes an http:// or https:// URL of a streamable-HTTP MCP endpoint, not 'ftp://host/mcp'",
        "--url http://h/mcp -- x                   | scan: give either --url or a command after --, not both",
        "--header 'A: b' -- x                      | scan: --header applies to --url only",
        "--url http://h/mcp --header nocolon       | scan: --header takes \"Name: value\", not 'nocolon'",
        "--url http://h/mcp --header 'Accept: x/y' | scan: --header cannot set Accept: scan sets it itself",
    })
    void aCommandLineThatCannotRunIsAUsageErrorWithExitCode2(String line, String message) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = line.isEmpty() ? new String[0] : split(line);
        int exit = ScanCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith(message + System.lineSeparator() + "usage: scan");
    }

    /** Words split at spaces, with single quotes grouping, as a shell would. */
    private static String[] split(String line) {
        java.util.List<String> words = new java.util.ArrayList<>();
        java.util.regex.Matcher word = java.util.regex.Pattern.compile("'([^']*)'|(\\S+)").matcher(line);
        while (word.find()) {
            words.add(word.group(1) != null ? word.group(1) : word.group(2));
        }
        return words.toArray(new String[0]);
    }
}
