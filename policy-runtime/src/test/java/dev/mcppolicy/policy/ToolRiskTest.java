package dev.mcppolicy.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ToolRiskTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "run_command, EXECUTE",
        "execute_sql, EXECUTE",
        "bash, EXECUTE",
        "exec_*, EXECUTE",
        "runCode, EXECUTE",
        "sandbox_exec_background, EXECUTE",
        "delete_file, DESTRUCTIVE",
        "delete_*, DESTRUCTIVE",
        "dropTable, DESTRUCTIVE",
        "rm, DESTRUCTIVE",
        "repo.delete, DESTRUCTIVE",
        "kill_process, DESTRUCTIVE",
        "wire_money, FINANCIAL",
        "create_payment, FINANCIAL",
        "write_file, WRITE",
        "git-push, WRITE",
        "read_file, READ",
        "get_issue, READ",
        "list_runs, READ",
        "format_date, READ",
        "format_disk, READ",
        "'', READ",
        "*, READ",
    })
    void classifiesByTheRiskiestWordOfTheName(String name, ToolRisk risk) {
        assertThat(ToolRisk.classify(name)).isEqualTo(risk);
    }

    @Test
    void splitsOnSeparatorsDigitsGlobCharactersAndCamelCase() {
        assertThat(ToolRisk.words("fs/read_file-v2.sync:now all")).containsExactly("fs", "read", "file", "v", "sync", "now", "all");
        assertThat(ToolRisk.words("exec*sh?x")).containsExactly("exec", "sh", "x");
        assertThat(ToolRisk.words("dropTable")).containsExactly("drop", "table");
        assertThat(ToolRisk.words("HTTPRequest2Go")).containsExactly("http", "request", "go");
        assertThat(ToolRisk.words("getURL")).containsExactly("get", "url");
        assertThat(ToolRisk.words("RUN")).containsExactly("run");
        assertThat(ToolRisk.words("_*9")).isEmpty();
    }

    @Test
    void matchesWholeWordsOnly() {
        assertThat(ToolRisk.classify("rmdir_tree")).isEqualTo(ToolRisk.DESTRUCTIVE);
        assertThat(ToolRisk.classify("farm_report")).isEqualTo(ToolRisk.READ);
        assertThat(ToolRisk.classify("runner_status")).isEqualTo(ToolRisk.READ);
        assertThat(ToolRisk.classify("prerun")).isEqualTo(ToolRisk.READ);
    }

    @Test
    void prefersDestructiveThenExecuteThenFinancialThenWrite() {
        assertThat(ToolRisk.classify("run_delete")).isEqualTo(ToolRisk.DESTRUCTIVE);
        assertThat(ToolRisk.classify("pay_by_script")).isEqualTo(ToolRisk.EXECUTE);
        assertThat(ToolRisk.classify("send_payment")).isEqualTo(ToolRisk.FINANCIAL);
        assertThat(ToolRisk.classify("read_then_write")).isEqualTo(ToolRisk.WRITE);
    }
}
