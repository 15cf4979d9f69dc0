package dev.mcppolicy.agent.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.json.CanonicalJson;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DecisionLineTest {
    @Test
    void theWrittenOutHashOfNoArgumentsIsTheHashOfAnEmptyObject() {
        assertThat(DecisionLine.EMPTY_OBJECT_SHA256).isEqualTo(CanonicalJson.sha256(Map.of()));
        assertThat(DecisionLine.NO_ARGUMENTS).isEqualTo(" arg_keys=\"\" args_sha256=" + CanonicalJson.sha256(Map.of()));
    }
}
