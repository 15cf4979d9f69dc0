package dev.mcppolicy.agent;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Never silent about a {@code servers} section that applies to nothing (SPEC §11): a client's first {@code tools/list}
 * from each server it had not listed before checks every section of the policy against the servers reached so far
 * (by {@code serverInfo.name} and by address), and a section none of them matches is one WARN, once per section for
 * the JVM's life. A typo in a section's key otherwise leaves that server under the top-level rules without a word.
 * One per JVM, shared by the client hooks of every stack.
 */
public final class ServerSections {
    private final Set<String> servers = ConcurrentHashMap.newKeySet();
    /** Every name and address of the servers reached. */
    private final Set<String> reached = ConcurrentHashMap.newKeySet();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    /**
     * A client listed the tools of the server {@code name} ({@code serverInfo.name}, or {@code null} when unknown) at
     * {@code address} ({@code stdio:...}, {@code url:...}, or {@code null}); {@code alias}, when not {@code null}, is
     * another key the stack's sections may use for it (LangChain4j's client {@code key}). Cheap after the first list
     * of a server: one set lookup.
     */
    public void listed(PolicySnapshot policy, String name, String address, String alias) {
        if (!servers.add(name + "\u0000" + address + "\u0000" + alias) || !policy.hasServerSections()) {
            return;
        }
        for (String key : new String[] {name, address, alias}) {
            if (key != null) {
                reached.add(key);
            }
        }
        for (String section : policy.engine().policy().servers().keySet()) {
            if (!reached.contains(section) && warned.add(section)) {
                Diagnostics.warn("servers section '" + section + "' matches no server this app's MCP clients have reached "
                        + new TreeSet<>(reached) + "; its rules apply to none of them (a section is keyed by the server's "
                        + "serverInfo.name, or by stdio:<command> <args> / url:<endpoint>)");
            }
        }
    }
}
