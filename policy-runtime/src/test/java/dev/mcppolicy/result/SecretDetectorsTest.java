package dev.mcppolicy.result;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every built-in detector with one secret it redacts and one near miss it leaves (fake secrets, built in pieces). */
class SecretDetectorsTest {
    private static final SecretDetectors SET = SecretDetectors.builtIn();

    private static String rep(String unit, int n) {
        return unit.repeat(n);
    }

    private static final String B64 = "MIIEowIBAAKCAQEA7bq98Zx1k2Lw3JdWQxP0cFv5nYt8sRkq4uHmEoGz9aB1cD2eF3gH4iJ5kL6mN7oP8qR9";

    /** id, text before, the secret, text after; and a near miss that holds the detector's keyword. */
    static Stream<Arguments> detectors() {
        return Stream.of(
                Arguments.of("private-key", "key:\n", "-----BEGIN RSA " + "PRIVATE KEY-----\n" + B64 + "\n-----END RSA PRIVATE KEY-----", "\nnext",
                        "-----BEGIN PUBLIC KEY-----\n" + B64 + "\n-----END PUBLIC KEY-----"),
                Arguments.of("aws-access-token", "id=", "AKIA" + "IOSFODNN7EXAMPLE", " ok", "id=AKIA" + "IOSFODNN7EXAMPL ok"),
                Arguments.of("github-pat", "token ", "ghp_" + rep("a1B2", 9), " end", "see the ghp_ prefix ghp_" + rep("x", 20)),
                Arguments.of("github-oauth", "token ", "gho_" + rep("Zz09", 9), " end", "gho_short and gho_" + rep("q", 30)),
                Arguments.of("github-app-token", "token ", "ghs_" + rep("k7Lm", 9), " end", "ghs_" + rep("k", 35) + "!"),
                Arguments.of("github-fine-grained-pat", "pat ", "github_pat_" + rep("11ABCDEFG0", 8) + "xy", " end", "github_pat_" + rep("a", 40) + " end"),
                Arguments.of("gitlab-pat", "token ", "glpat-" + rep("x9Y_", 5), " end", "glpat-" + rep("x", 19) + " end"),
                Arguments.of("slack-bot-token", "token ", "xoxb-" + "1234567890-1234567890-" + "AbCdEf", " end", "xoxb-123-456 end"),
                Arguments.of("slack-user-token", "token ", "xoxp-" + "1234567890-1234567890-1234567890-" + rep("aB3d", 8), " end", "xoxp-1234567890-abc end"),
                Arguments.of("slack-webhook-url", "url=", "https://hooks.slack.com/services/" + "T00000000/B00000000/" + rep("X", 24), " end",
                        "https://hooks.slack.com/services/short"),
                Arguments.of("stripe-access-token", "key ", "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", " end", "sk_live_abc end"),
                Arguments.of("gcp-api-key", "key ", "AIza" + rep("SyA-1", 7), " end", "AIza" + rep("S", 20) + " end"),
                Arguments.of("openai-api-key", "key ", "sk-" + rep("aB3dE", 4) + "T3Blbk" + "FJ" + rep("Zy9xW", 4), " end",
                        "sk-" + rep("aB3dE", 4) + "T3Blbk" + "FJ" + rep("Zy", 5) + " end"),
                Arguments.of("anthropic-api-key", "key ", "sk-ant-api03-" + rep("a", 93) + "AA", " end", "sk-ant-api03-" + rep("a", 10) + "AA end"),
                Arguments.of("npm-access-token", "//registry:_authToken=", "npm_" + rep("ab12", 9), " end", "npm_config_cache=/tmp npm_" + rep("a", 20)),
                Arguments.of("pypi-upload-token", "password = ", "pypi-AgEIcHlwaS5vcmc" + rep("Ab_1-", 12), " end", "pypi-AgEIcHlwaS5vcmc" + rep("A", 10) + " end"),
                Arguments.of("sendgrid-api-token", "key ", "SG." + rep("aB3dE", 4) + "xy." + rep("Qw9Er", 8) + "zzz", " end", "SG." + rep("a", 20) + " end"),
                Arguments.of("shopify-access-token", "token ", "shpat_" + rep("0a1b", 8), " end", "shpat_" + rep("0", 31) + "z end"),
                Arguments.of("digitalocean-pat", "token ", "dop_v1_" + rep("0123456789abcdef", 4), " end", "dop_v1_" + rep("a", 63) + "g end"),
                Arguments.of("huggingface-access-token", "token ", "hf_" + rep("abCDe", 6) + "fGhI", " end", "hf_" + rep("a", 33) + "1 end"),
                Arguments.of("databricks-api-token", "token ", "dapi" + rep("0123456789abcdef", 2), " end", "dapi" + rep("a", 31) + " end"),
                Arguments.of("jwt", "Authorization: Bearer ", "eyJhbGciOiJIUzI1NiJ9" + "." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0" + "."
                        + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", " end", "hey.eyebrows.they"),
                Arguments.of("basic-auth-url", "postgres://admin:", "s3cret" + "Pass", "@db.internal:5432/app",
                        "https://example.com:8443/path and user@example.com"),
                Arguments.of("database-connection-string", "REDIS_URL=redis://:", "s3cret" + "Pass", "@cache:6379/0",
                        "redis://cache:6379/0 and mysql://app@db/app and xredis://:pw@cache"),
                Arguments.of("azure-storage-account-key", "DefaultEndpointsProtocol=https;AccountName=app;AccountKey=",
                        rep("Abc1deF23gHIjkLm", 5) + "nOpQRS==", ";EndpointSuffix=core.windows.net",
                        "AccountKey=" + rep("Abc1deF23gHIjkLm", 5) + ";"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("detectors")
    void redactsItsSecretAndLeavesItsNearMiss(String id, String before, String secret, String after, String nearMiss) {
        int[] counts = new int[SET.size()];
        String redacted = SET.redact(before + secret + after, counts);
        assertEquals(before + "[REDACTED:" + id + "]" + after, redacted);
        int index = SET.ids().indexOf(id);
        assertEquals(1, counts[index], id);
        assertEquals(1, Arrays.stream(counts).sum(), "only " + id + " redacted: " + Arrays.toString(counts));

        int[] none = new int[SET.size()];
        assertSame(nearMiss, SET.redact(nearMiss, none), id + " near miss");
        assertEquals(0, Arrays.stream(none).sum());
    }

    @Test
    void theTableCoversEveryDetector() {
        Set<String> tested = new HashSet<>();
        detectors().forEach(arguments -> tested.add((String) arguments.get()[0]));
        assertEquals(new HashSet<>(SET.ids()), tested);
        assertEquals(25, SET.size());
    }

    @Test
    void aTextWithNoSecretIsTheSameInstance() {
        String text = "total 12\ndrwxr-xr-x 2 app app 4096 Dec  4 key value eyes ://nowhere\n";
        assertSame(text, SET.redact(text, new int[SET.size()]));
    }

    @Test
    void countsEveryRedactionOfEachDetector() {
        int[] counts = new int[SET.size()];
        String key = "AKIA" + "IOSFODNN7EXAMPLE";
        String redacted = SET.redact(key + " and " + key + " and ghp_" + rep("a1B2", 9), counts);
        assertEquals("[REDACTED:aws-access-token] and [REDACTED:aws-access-token] and [REDACTED:github-pat]", redacted);
        assertEquals(2, counts[SET.ids().indexOf("aws-access-token")]);
        assertEquals(1, counts[SET.ids().indexOf("github-pat")]);
    }

    @Test
    void aPrivateKeyWithNoEndLineLeavesTheNextPublicKeyBlockAlone() {
        String publicKey = "-----BEGIN PUBLIC KEY-----\n" + B64 + "\n-----END PUBLIC KEY-----\n";
        String cut = "-----BEGIN RSA " + "PRIVATE KEY-----\n" + B64 + "\n" + B64 + "\n" + publicKey;
        assertSame(cut, SET.redact(cut, new int[SET.size()]));
        // a block that does end is redacted up to its own END line, and the public key after it stays
        String whole = "-----BEGIN EC " + "PRIVATE KEY-----\n" + B64 + "\n-----END EC PRIVATE KEY-----\n";
        assertEquals("[REDACTED:private-key]\n" + publicKey, SET.redact(whole + publicKey, new int[SET.size()]));
    }

    @Test
    void aDatabaseUrlsPasswordAloneIsRedactedAndBasicAuthUrlComesFirst() {
        int[] counts = new int[SET.size()];
        String text = "mysql://app:pa:ss@db/app mongodb+srv://root:" + "pw1@cluster0/db AMQPS://:guest@mq postgres://u:" + "p@db";
        assertEquals("mysql://app:[REDACTED:database-connection-string]@db/app mongodb+srv://root:[REDACTED:basic-auth-url]@cluster0/db"
                + " AMQPS://:[REDACTED:database-connection-string]@mq postgres://u:[REDACTED:basic-auth-url]@db", SET.redact(text, counts));
        assertEquals(2, counts[SET.ids().indexOf("database-connection-string")]);
        assertEquals(2, counts[SET.ids().indexOf("basic-auth-url")]);
    }

    @Test
    void positionsHoldAfterCharsPastLatin1() {
        String key = "AKIA" + "IOSFODNN7EXAMPLE";
        for (String before : new String[] {"\uD83D\uDE00\uD83D\uDE00 ", "\u20AC\u0141 ", "\u00E9\u00FF "}) {
            int[] counts = new int[SET.size()];
            assertEquals(before + "id=[REDACTED:aws-access-token] ok \uD83D\uDE00", SET.redact(before + "id=" + key + " ok \uD83D\uDE00", counts));
            assertEquals(1, counts[SET.ids().indexOf("aws-access-token")]);
        }
        // a char whose low byte is a keyword's ('\u0141' ends in 0x41, 'A') is no keyword
        String lookalike = "\u0141KIA" + "IOSFODNN7EXAMPLE";
        assertSame(lookalike, SET.redact(lookalike, new int[SET.size()]));
    }

    @Test
    void aHugeLineAndLoneSurrogatesAreRead() {
        String line = rep("ey key AKIA ", 1_000_000);
        assertTrue(line.length() > 10_000_000);
        assertSame(line, SET.redact(line, new int[SET.size()]));
        String broken = "\uD800 AKIA" + "IOSFODNN7EXAMPLE \uDC00";
        assertEquals("\uD800 [REDACTED:aws-access-token] \uDC00", SET.redact(broken, new int[SET.size()]));
    }
}
