package dev.mcppolicy.agent.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;

/** Which requests the admin endpoint answers, and its token. */
class AdminAccessTest {
    private final AdminAccess access = new AdminAccess("127.0.0.1", 9464);

    @Test
    void answersOnlyAHostNamingThisLoopbackServerAndNoForeignOrigin() {
        for (String host : new String[] {"127.0.0.1:9464", "localhost:9464", "LOCALHOST:9464", "[::1]:9464"}) {
            assertThat(access.refusal(host, null)).as(host).isNull();
        }
        assertThat(access.refusal("127.0.0.1:9464", "http://127.0.0.1:9464")).isNull();
        assertThat(access.refusal("127.0.0.1:9464", "http://localhost:9464")).isNull();
        for (String host : new String[] {null, "", "evil.example:9464", "127.0.0.1:80", "127.0.0.1", "127.0.0.1:9464.evil.example"}) {
            assertThat(access.refusal(host, null)).as(String.valueOf(host)).startsWith("the Host header must name this loopback server");
        }
        for (String origin : new String[] {"http://evil.example", "http://127.0.0.1:9465", "https://127.0.0.1:9464", "null", ""}) {
            assertThat(access.refusal("127.0.0.1:9464", origin)).as(origin).isEqualTo("requests from another origin are refused");
        }
    }

    @Test
    void theTokenIsAdmittedOnlyAsABearerTokenAndARandomOneIsInAFileOnlyTheUserReads() throws Exception {
        AdminToken random = AdminToken.random();
        String token = Files.readString(random.file(), StandardCharsets.UTF_8);
        assertThat(token).hasSizeGreaterThanOrEqualTo(43);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(random.file()))).isEqualTo("rw-------");
        assertThat(random.admits("Bearer " + token)).isTrue();
        assertThat(random.admits("bearer " + token)).isTrue();
        assertThat(random.admits(token)).isFalse();
        assertThat(random.admits("Bearer " + token + "x")).isFalse();
        assertThat(random.admits("Basic " + token)).isFalse();
        assertThat(random.admits(null)).isFalse();
        assertThat(AdminToken.random().admits("Bearer " + token)).as("each is new").isFalse();
        assertThat(AdminToken.configured("0123456789abcdef").admits("Bearer 0123456789abcdef")).isTrue();
    }

    @Test
    void theDecisionsLimitIsANumberUpToTheRingsCapacity() {
        assertThat(AdminServer.limit(null)).isEqualTo(50);
        assertThat(AdminServer.limit("limit=3")).isEqualTo(3);
        assertThat(AdminServer.limit("x=1&limit=500")).isEqualTo(500);
        assertThat(AdminServer.limit("limit=501")).isNull();
        assertThat(AdminServer.limit("limit=-1")).isNull();
        assertThat(AdminServer.limit("limit=")).isNull();
        assertThat(AdminServer.limit("limit=99999999999")).isNull();
    }

    @Test
    void thePagesScriptIsAllowedByItsHashAlone() {
        assertThat(AdminServer.scriptHash("<p><script>alert(1)</script>")).isEqualTo("sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=");
    }
}
