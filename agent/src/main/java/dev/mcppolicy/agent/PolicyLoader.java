package dev.mcppolicy.agent;

import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.policy.PolicyLint;
import dev.mcppolicy.policy.PolicyWarning;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;

/**
 * Reads the policy off the app's main thread (parsing loads Jackson and the engine, tens of
 * milliseconds the app's start-up need not wait for), completes the holder, and prints the policy
 * line of the startup summary, then a WARN line for each weakness {@code check} warns about. Tool calls
 * that arrive first wait for it.
 */
final class PolicyLoader extends Thread {
    private final PolicyHolder target;
    private final Path path;
    private final String searched;
    private final boolean failOpen;

    PolicyLoader(PolicyHolder target, Path path, String searched, boolean failOpen) {
        super("mcp-policy-loader");
        setDaemon(true);
        this.target = target;
        this.path = path;
        this.searched = searched;
        this.failOpen = failOpen;
    }

    @Override
    public void run() {
        PolicySnapshot read;
        try {
            read = PolicyReader.read(path, searched, failOpen, Clock.systemUTC());
        } catch (Throwable t) {
            read = PolicyReader.read(null, "(the policy loader failed: " + t + ")", failOpen, Clock.systemUTC());
        }
        target.completeWith(read);
        PolicyEngine engine = read.engine();
        if (engine != null) {
            Diagnostics.info("policy " + read.path() + " sha256=" + engine.policy().sha256()
                    + " mode=" + engine.policy().mode().name().toLowerCase(Locale.ROOT)
                    + " default=" + engine.policy().defaultAction().name().toLowerCase(Locale.ROOT));
            for (PolicyWarning warning : PolicyLint.warnings(engine.policy())) {
                Diagnostics.warn("policy " + warning); // what `check` would say, for users who never ran it
            }
        } else if (failOpen) {
            Diagnostics.error("policy unavailable, every tool call will be ALLOWED unchecked (on_error=allow): "
                    + read.unavailableDetails());
        } else {
            Diagnostics.error("policy unavailable, every tool call will be denied (on_error=deny): "
                    + read.unavailableDetails());
        }
    }
}
