package dev.mcppolicy.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.policy.ToolRisk;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RiskCategorizerTest {

    @ParameterizedTest(name = "{0} {1} is {2}")
    @CsvSource(delimiter = '|', value = {
        // name              | hints                                   | category
        "lookup              | readOnlyHint=true                        | READ",
        "set_view            | readOnlyHint=true                        | READ",
        "cleanup             | destructiveHint=true                     | DESTRUCTIVE",
        "cleanup             | readOnlyHint=false                       | DESTRUCTIVE",
        "cleanup             | readOnlyHint=false,destructiveHint=false | WRITE",
        "delete_user         | readOnlyHint=true                        | DESTRUCTIVE",
        "run_query           | readOnlyHint=true                        | EXECUTE",
        "refund              | destructiveHint=false                    | FINANCIAL",
        "run_command         | destructiveHint=true                     | EXECUTE",
        "run_command         | readOnlyHint=false                       | EXECUTE",
        "lookup              | readOnlyHint=true,destructiveHint=true   | READ",
    })
    void annotationsDecideButNeverLowerWhatTheNameShowsBeyondWrite(String name, String hints, ToolRisk expected) {
        assertThat(RiskCategorizer.categorize(new ScannedTool(name, null, hints(hints), null)).risk()).isEqualTo(expected);
    }

    @Test
    void readsTheNameWhenNoHintDecides() {
        RiskCategorizer.Categorized runCommand = RiskCategorizer.categorize(new ScannedTool("run_command", "Runs a shell line", null, null));
        assertThat(runCommand.risk()).isEqualTo(ToolRisk.EXECUTE);
        assertThat(runCommand.evidence()).isEqualTo("no annotations; the name has 'run'");

        RiskCategorizer.Categorized titled = RiskCategorizer.categorize(new ScannedTool("write_file", null,
                Map.of("title", "Write", "openWorldHint", false), null));
        assertThat(titled.risk()).isEqualTo(ToolRisk.WRITE);
        assertThat(titled.evidence()).isEqualTo("no readOnlyHint or destructiveHint (openWorldHint=false); the name has 'write'");
    }

    @Test
    void readsTheDescriptionsFirstWordOnlyWhenTheNameHasNoWordOfRisk() {
        RiskCategorizer.Categorized cleanup = RiskCategorizer.categorize(new ScannedTool("cleanup", "Deletes every file in the workspace", null, null));
        assertThat(cleanup.risk()).isEqualTo(ToolRisk.DESTRUCTIVE);
        assertThat(cleanup.evidence()).isEqualTo("no annotations; the description starts with 'deletes'");
        assertThat(RiskCategorizer.categorize(new ScannedTool("go", "  Pushes the branch", null, null)).risk()).isEqualTo(ToolRisk.WRITE);
        assertThat(RiskCategorizer.categorize(new ScannedTool("go", "Runs it", null, null)).risk()).isEqualTo(ToolRisk.EXECUTE);
        assertThat(RiskCategorizer.categorize(new ScannedTool("write_note", "Deletes nothing, ever", null, null)).risk())
                .isEqualTo(ToolRisk.WRITE);
        assertThat(RiskCategorizer.categorize(new ScannedTool("ps", "Lists the system's processes", null, null)).risk())
                .isEqualTo(ToolRisk.READ);
        RiskCategorizer.Categorized plain = RiskCategorizer.categorize(new ScannedTool("get_sum", "Returns the sum of two numbers", null, null));
        assertThat(plain.risk()).isEqualTo(ToolRisk.READ);
        assertThat(plain.evidence()).isEqualTo("no annotations, and no word of risk in the name or at the start of the description");
    }

    @Test
    void saysWhichHintsItReadAndWhyTheNameOutweighedThem() {
        RiskCategorizer.Categorized tool = RiskCategorizer.categorize(new ScannedTool("delete_user", null,
                Map.of("readOnlyHint", true, "idempotentHint", true, "openWorldHint", false), null));
        assertThat(tool.evidence()).isEqualTo("annotations say readOnlyHint=true (idempotentHint=true, openWorldHint=false),"
                + " but the name has 'delete', and a server's hint does not lower the risk its name shows");
        assertThat(RiskCategorizer.categorize(new ScannedTool("cleanup", null, Map.of("readOnlyHint", false), null)).evidence())
                .isEqualTo("annotations say readOnlyHint=false and no destructiveHint (whose default is true)");
    }

    @Test
    void aHintThatIsNotABooleanCountsAsAbsent() {
        RiskCategorizer.Categorized tool = RiskCategorizer.categorize(new ScannedTool("lookup", null,
                Map.of("readOnlyHint", "true", "destructiveHint", 1), null));
        assertThat(tool.risk()).isEqualTo(ToolRisk.READ);
        assertThat(tool.evidence()).startsWith("no readOnlyHint or destructiveHint");
        assertThat(RiskCategorizer.categorize(new ScannedTool("delete_user", null, Map.of("readOnlyHint", "yes"), null)).risk())
                .isEqualTo(ToolRisk.DESTRUCTIVE);
    }

    private static Map<String, Object> hints(String text) {
        Map<String, Object> hints = new HashMap<>();
        for (String pair : text.split(",")) {
            String[] kv = pair.trim().split("=");
            hints.put(kv[0], Boolean.parseBoolean(kv[1]));
        }
        return hints;
    }
}
