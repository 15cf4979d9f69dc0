package dev.mcppolicy.agent;

import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.PolicyParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

/** Reads a policy file into a {@link PolicySnapshot}; never throws: a missing or invalid file gives an unavailable one. */
public final class PolicyReader {
    private PolicyReader() {
    }

    /**
     * @param path the policy file, or {@code null} when none was found
     * @param searched where it was looked for, for the message when {@code path} is {@code null}
     */
    public static PolicySnapshot read(Path path, String searched, boolean failOpen, Clock clock) {
        if (path == null) {
            return PolicySnapshot.unavailable("no policy file found (looked for " + searched + ")", null, null, failOpen);
        }
        if (!Files.isRegularFile(path)) {
            return PolicySnapshot.unavailable("policy file not found: " + path, null, path, failOpen);
        }
        try {
            Policy policy = PolicyParser.parse(path);
            PolicyEngine engine = PolicyEngine.of(policy, clock);
            engine.warmUp(); // off the call path: the loader thread sets up the counters
            return PolicySnapshot.of(engine, path, failOpen);
        } catch (PolicyException e) {
            int count = e.errors().size();
            String reason = "invalid policy " + path.getFileName() + " (" + count + (count == 1 ? " error" : " errors")
                    + ", listed in the agent's startup output)";
            return PolicySnapshot.unavailable(reason, e.getMessage(), path, failOpen);
        } catch (RuntimeException | LinkageError e) {
            return PolicySnapshot.unavailable("cannot read policy " + path + ": " + e, null, path, failOpen);
        }
    }
}
