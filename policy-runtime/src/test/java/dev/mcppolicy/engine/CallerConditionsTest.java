package dev.mcppolicy.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mcppolicy.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 32: conditions on who is calling ({@code caller.*}), and the {@code user} limit scope. */
class CallerConditionsTest {
    private static final String POLICY = """
            version: "1"
            default: deny
            tools:
              run_command:
                require: [{path: caller.roles, op: contains, value: ops}]
              verified_only:
                require: [{path: caller.verified, op: eq, value: true}]
              not_finance:
                deny_if: [{path: caller.claims.department, op: eq, value: finance}]
              by_team:
                require: [{path: caller.claims.team, op: eq, value: blue}]
              by_sub:
                require: [{path: caller.sub, op: regex, value: "^[a-z]+@example\\\\.com$"}]
              echo_caller_argument:
                require: [{path: args.caller.name, op: eq, value: robot}]
              search:
                limits: [{max: 2, window: minute, scope: user}]
            """;

    private final PolicyEngine engine = PolicyEngine.of(Policies.parse(POLICY), new ManualClock(Instant.EPOCH));

    private static Caller user(String sub, List<String> roles, Map<String, ?> claims) {
        return Caller.verified(sub, sub, roles, claims);
    }

    private Decision decide(String tool, Caller caller) {
        return decide(tool, Map.of(), caller);
    }

    private Decision decide(String tool, Map<String, ?> arguments, Caller caller) {
        return engine.decide(ToolCall.server(tool, arguments).withCaller(caller));
    }

    @Test
    void aRoleIsANameNotAText() {
        assertThat(decide("run_command", user("alice", List.of("dev", "ops"), Map.of())).effect()).isEqualTo(Effect.ALLOW);
        Decision devops = decide("run_command", user("bob", List.of("devops"), Map.of()));
        assertThat(devops.effect()).isEqualTo(Effect.DENY);
        assertThat(devops.rule()).isEqualTo("/tools/run_command/require/0");
        assertThat(decide("run_command", user("carol", List.of(), Map.of())).effect()).isEqualTo(Effect.DENY);
        assertThat(decide("run_command", Caller.unverified()).effect()).isEqualTo(Effect.DENY);
    }

    @Test
    void anUnverifiedCallerHasNoIdentityWhateverItClaims() {
        Caller claimed = new Caller("mallory", "Mallory", List.of("ops"), Map.of("department", "ops"), false);
        assertThat(claimed).isEqualTo(Caller.unverified());
        assertThat(decide("verified_only", claimed).effect()).isEqualTo(Effect.DENY);
        assertThat(decide("run_command", claimed).effect()).isEqualTo(Effect.DENY);
        assertThat(decide("verified_only", user("alice", List.of(), Map.of())).effect()).isEqualTo(Effect.ALLOW);
    }

    @Test
    void claimsAreReadByName() {
        assertThat(decide("not_finance", user("alice", List.of(), Map.of("department", "finance"))).effect()).isEqualTo(Effect.DENY);
        assertThat(decide("not_finance", user("bob", List.of(), Map.of("department", "ops"))).effect()).isEqualTo(Effect.ALLOW);
        assertThat(decide("not_finance", user("carol", List.of(), Map.of())).effect()).isEqualTo(Effect.ALLOW);
        assertThat(decide("by_sub", user("dave@example.com", List.of(), Map.of())).effect()).isEqualTo(Effect.ALLOW);
        assertThat(decide("by_sub", user("dave@evil.com", List.of(), Map.of())).effect()).isEqualTo(Effect.DENY);
    }

    @Test
    void aClaimThatIsAnObjectWhereAStringWasExpectedIsDecidedByTheTypeRule() {
        Decision decision = decide("by_team", user("alice", List.of(), Map.of("team", Map.of("name", "blue", "id", 7))));
        assertThat(decision.effect()).isEqualTo(Effect.DENY);
        assertThat(decision.rule()).isEqualTo("/tools/by_team/require/0");
        assertThat(decision.argument()).startsWith("caller.claims.team");
        assertThat(decide("by_team", user("bob", List.of(), Map.of("team", "blue"))).effect()).isEqualTo(Effect.ALLOW);
    }

    @Test
    void anArgumentNamedCallerIsArgsCaller() {
        assertThat(decide("echo_caller_argument", Map.of("caller", Map.of("name", "robot")), Caller.unverified()).effect())
                .isEqualTo(Effect.ALLOW);
        assertThat(decide("echo_caller_argument", Map.of(), user("robot", List.of(), Map.of())).effect()).isEqualTo(Effect.DENY);
    }

    @Test
    void aUserLimitCountsPerVerifiedSubjectAndEveryoneElseSharesOneBudget() {
        Caller alice = user("alice", List.of(), Map.of());
        assertThat(decide("search", alice).effect()).isEqualTo(Effect.ALLOW);
        assertThat(decide("search", alice).effect()).isEqualTo(Effect.ALLOW);
        Decision third = decide("search", alice);
        assertThat(third.effect()).isEqualTo(Effect.DENY);
        assertThat(third.rule()).isEqualTo("/tools/search/limits/0");
        // the same subject from another session or client name: the same budget
        assertThat(engine.decide(new ToolCall(Side.SERVER, null, "search", Map.of(), "s2", "other", null).withCaller(alice)).effect())
                .isEqualTo(Effect.DENY);
        assertThat(decide("search", user("bob", List.of(), Map.of())).effect()).isEqualTo(Effect.ALLOW);
        // callers with no verified subject: one budget, (none)
        assertThat(engine.decide(new ToolCall(Side.SERVER, null, "search", Map.of(), "s3", "x", null)).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(new ToolCall(Side.SERVER, null, "search", Map.of(), "s4", "y", null)).effect()).isEqualTo(Effect.ALLOW);
        assertThat(engine.decide(new ToolCall(Side.SERVER, null, "search", Map.of(), "s5", "z", null)).effect()).isEqualTo(Effect.DENY);
    }

    @Test
    void theViewHoldsWhatIsKnownAndAlwaysVerified() {
        assertThat(Caller.unverified().view()).isEqualTo(Map.of("caller", Map.of("roles", List.of(), "claims", Map.of(), "verified", false)));
        assertThat(user("alice", List.of("ops"), Map.of("k", 1)).view()).isEqualTo(Map.of("caller",
                Map.of("sub", "alice", "name", "alice", "roles", List.of("ops"), "claims", Map.of("k", 1), "verified", true)));
    }
}
