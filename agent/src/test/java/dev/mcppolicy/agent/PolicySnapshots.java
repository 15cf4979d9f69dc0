package dev.mcppolicy.agent;

import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.PolicyParser;
import java.time.Clock;

/** Snapshots and holder swaps for tests outside this package. */
public final class PolicySnapshots {
    private PolicySnapshots() {
    }

    public static PolicySnapshot of(String json, boolean failOpen) {
        try {
            return PolicySnapshot.of(PolicyEngine.of(PolicyParser.parse(json, PolicyParser.Format.JSON, "test"), Clock.systemUTC()),
                    null, failOpen);
        } catch (PolicyException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A snapshot as if read from {@code path} (a policy's relative {@code pins} file resolves beside it). */
    public static PolicySnapshot of(String json, java.nio.file.Path path) {
        try {
            return PolicySnapshot.of(PolicyEngine.of(PolicyParser.parse(json, PolicyParser.Format.JSON, "test"), Clock.systemUTC()),
                    path, false);
        } catch (PolicyException e) {
            throw new IllegalArgumentException(e);
        }
    }

    public static PolicyHolder loading(boolean failOpen) {
        return PolicyHolder.loading(failOpen);
    }

    public static void complete(PolicyHolder holder, PolicySnapshot read) {
        holder.completeWith(read);
    }

    public static void replace(PolicyHolder holder, PolicySnapshot next) {
        holder.replace(next);
    }
}
