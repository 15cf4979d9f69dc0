package dev.mcppolicy.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

    @ParameterizedTest
    @CsvSource({
        "second, PT1S", "minute, PT1M", "hour, PT1H", "day, PT24H",
        "60, PT1M", "1, PT1S", "007, PT7S", "30s, PT30S", "5m, PT5M", "1h, PT1H", "1d, PT24H", "90s, PT1M30S",
        "106751d, PT2562024H", "9223372036, PT2562047H47M16S", "99999999999m, ",
    })
    void parsesEveryWrittenForm(String text, String expected) {
        assertThat(Durations.parse(text)).isEqualTo(expected == null ? null : Duration.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0", "0s", "00m", "-1", "-5s", "+5s", "1.5h", "5w", "5M", "5S", "5 m", " 5m", "m", "s",
        "Second", "seconds", "1e3", "5mm", "9223372037", "106752d", "9999999999999", "99999999999d"})
    void rejectsWhatNamesNoCountableDuration(String text) {
        assertThat(Durations.parse(text)).isNull();
    }

    @ParameterizedTest
    @CsvSource({"PT1S, 1s", "PT59S, 59s", "PT1M, 1m", "PT90S, 90s", "PT1H, 1h", "PT2H, 2h", "PT24H, 1d", "PT48H, 2d",
        "PT25H, 25h", "PT0.5S, 500ms", "PT0S, 0s"})
    void formatsTheWayPolicyFilesWriteDurations(String duration, String expected) {
        assertThat(Durations.format(Duration.parse(duration))).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1s", "45s", "10m", "36h", "7d"})
    void formatThenParseGivesTheSameDuration(String text) {
        assertThat(Durations.format(Durations.parse(text))).isEqualTo(text);
    }
}
