package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Spring AI server on a Spring WebMvc or WebFlux HTTP transport. Beside the shared scenarios, {@code scope: client}
 * counts per caller credential: the app sets no transport-context extractor, so the identity comes from the
 * agent's hook on the Spring transport, which hashes the {@code Authorization} header of the Spring
 * {@code ServerRequest} (as {@code CallerIdentityIT} does for the servlet transports).
 */
abstract class AbstractSpringAiHttpScenarios extends AbstractSpringAiScenarios {
    private static final String OK = "RESULT isError=false text=per_caller done";

    /** The Spring policy, and {@code per_caller} with a limit per caller; the client policy hides it from the shared list. */
    @Override
    String serverPolicy() {
        return super.serverPolicy().replace("\"audit_me\":", """
                "per_caller": { "limits": [ { "counter": "per-caller", "window": "hour", "max": 2, "scope": "client" } ] },
                    "audit_me":""");
    }

    @Override
    String clientPolicy() {
        return Policies.CLIENT.replace("\"hide\": [\"client_hidden\"]", "\"hide\": [\"client_hidden\", \"per_caller\"]");
    }

    /** The Spring transport's class, as the startup summary names it. */
    abstract String transportClass();

    @Test
    void hooksTheSpringTransportForCallerIdentity() throws Exception {
        pair().sync();
        assertThat(pair().serverLog()).as(pair().dump()).anyMatch(l -> l.startsWith("[mcp-policy] instrumented " + transportClass() + " (")
                && l.endsWith("): transport context") && !l.contains("version unknown"));
    }

    @Test
    void clientScopedLimitsCountPerHashedAuthorizationHeader() throws Exception {
        Path root = Fixtures.workPath(getClass().getSimpleName());
        List<ForkedJvm> clients = new ArrayList<>();
        try {
            ForkedJvm alice = caller(clients, root, "alice", "Bearer alice-secret");
            ForkedJvm bob = caller(clients, root, "bob", "Bearer bob-secret");
            assertThat(Callers.call(alice, "per_caller")).isEqualTo(OK);
            assertThat(Callers.call(alice, "per_caller")).isEqualTo(OK);
            assertThat(Callers.call(alice, "per_caller")).startsWith("RESULT isError=true text=Policy denied tool 'per_caller': ")
                    .contains("retry after").endsWith("[rule /tools/per_caller/limits/0]");
            // another caller has a budget of its own
            assertThat(Callers.call(bob, "per_caller")).isEqualTo(OK);
            assertThat(Callers.call(bob, "per_caller")).isEqualTo(OK);
            // the same credential on a new connection (a new session) shares alice's budget
            ForkedJvm aliceAgain = caller(clients, root, "alice-again", "Bearer alice-secret");
            assertThat(Callers.call(aliceAgain, "per_caller")).startsWith("RESULT isError=true");

            String alicePrincipal = Callers.principalField("Bearer alice-secret");
            String bobPrincipal = Callers.principalField("Bearer bob-secret");
            pair().awaitServerLog(l -> l.contains("decision=DENY tool=per_caller") && l.contains(alicePrincipal)
                    && l.contains("retry_after="));
            pair().awaitServerLog(l -> l.contains("decision=ALLOW tool=per_caller") && l.contains(bobPrincipal));
            List<String> log = pair().serverLog();
            assertThat(log).as(pair().dump()).filteredOn(l -> l.contains("decision=") && l.contains("tool=per_caller")).hasSize(6)
                    .allMatch(l -> l.contains(alicePrincipal) || l.contains(bobPrincipal));
            assertThat(log).filteredOn(l -> l.startsWith("HANDLER RAN per_caller")).hasSize(4);
            assertThat(log).noneMatch(l -> l.contains("alice-secret") || l.contains("bob-secret"));
        } finally {
            for (ForkedJvm client : clients) {
                client.close();
            }
        }
    }

    /** A fixture client without the agent, sending {@code Authorization: <authorization>} on every request. */
    private ForkedJvm caller(List<ForkedJvm> clients, Path root, String name, String authorization) throws IOException {
        return Callers.start(clients, root.resolve(name), getClass().getSimpleName() + "-" + name, authorization,
                Fixtures.classPath(sdkVersion()), transport(), pair().serverUrl());
    }
}
