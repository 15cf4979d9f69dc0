package dev.mcppolicy.bench;

import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.engine.ResultJudge;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.PolicyParser;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A result rule judging a 64 KiB text result (issue 31, goal 4: at most 50 µs p50 with the built-in {@code secrets}):
 * {@code ls -l}-like shell output with no secret, the same with three planted, and beside them the same text
 * through a rule of one custom regex and through {@code max_bytes} alone, as baselines of the same run.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Benchmark)
public class SecretsBenchmark {
    static final String POLICY = """
            {"version": "1", "default": "allow", "tools": {
              "secrets": {"result": {"redact": ["secrets"]}},
              "custom": {"result": {"redact": [{"regex": "(?i)password=\\\\S+", "with": "password=[REDACTED]"}]}},
              "size": {"result": {"max_bytes": 1048576}}}}
            """;
    static final int SIZE = 64 * 1024;

    private ResultJudge secrets;
    private ResultJudge custom;
    private ResultJudge size;
    private ResultJudge.Answer clean;
    private ResultJudge.Answer planted;

    @Setup
    public void setUp() throws PolicyException {
        PolicyEngine engine = PolicyEngine.of(PolicyParser.parse(POLICY, PolicyParser.Format.JSON, "bench"), Clock.systemUTC());
        secrets = engine.resultJudge(ToolCall.server("secrets", Map.of()));
        custom = engine.resultJudge(ToolCall.server("custom", Map.of()));
        size = engine.resultJudge(ToolCall.server("size", Map.of()));
        StringBuilder text = new StringBuilder(SIZE + 100);
        for (int i = 0; text.length() < SIZE; i++) {
            text.append("-rw-r--r-- 1 app app ").append(1000 + i * 37 % 9000).append(" Dec  4 12:").append(10 + i % 50)
                    .append(" report-").append(i).append(".json {\"key\": \"value-").append(i).append("\", \"eyes\": true}\n");
        }
        String plain = text.substring(0, SIZE);
        clean = new ResultJudge.Answer(List.of(plain), null, 0);
        String withSecrets = "AWS_ACCESS_KEY_ID=" + "AKIA" + "IOSFODNN7EXAMPLE\n" + plain.substring(0, SIZE / 2)
                + "GITHUB_TOKEN=ghp_" + "a1B2".repeat(9) + "\n" + plain.substring(SIZE / 2, SIZE - 200)
                + "DATABASE_URL=postgres://app:" + "s3cretPass@db:5432/app\n";
        planted = new ResultJudge.Answer(List.of(withSecrets), null, 0);
        if (secrets.judge(planted).redacted() == null || secrets.judge(clean).redacted() != null) {
            throw new IllegalStateException("the benchmark's texts do not hold what they should");
        }
    }

    @Benchmark
    public ResultJudge.Verdict secretsClean64k() {
        return secrets.judge(clean);
    }

    @Benchmark
    public ResultJudge.Verdict secretsThreePlanted64k() {
        return secrets.judge(planted);
    }

    @Benchmark
    public ResultJudge.Verdict oneCustomRegex64k() {
        return custom.judge(clean);
    }

    @Benchmark
    public ResultJudge.Verdict maxBytesOnly64k() {
        return size.judge(clean);
    }
}
