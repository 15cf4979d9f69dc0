package dev.mcppolicy.it;

/** The policy files the fixture JVMs find in their working directories. */
final class Policies {
    /** Server side: every scenario's rule, one tool each. */
    static final String SERVER = """
            {
              "version": "1",
              "default": "deny",
              "hide": ["secret_tool"],
              "tools": {
                "echo": { "arguments": "input_schema" },
                "wire_money": {},
                "client_hidden": {},
                "secret_tool": {},
                "delete_everything": { "action": "deny", "reason": "destructive tools are disabled" },
                "run_command": { "deny_if": [ { "path": "command", "op": "contains", "value": "rm -rf" } ] },
                "limited": { "limits": [ { "counter": "limited", "window": "hour", "max": 2, "scope": "session" } ] },
                "audit_me": { "mode": "monitor", "action": "deny", "reason": "would be blocked" }
              }
            }
            """;

    /** Client side: a server section keyed by the fixture server's serverInfo.name. */
    static final String CLIENT = """
            {
              "version": "1",
              "default": "allow",
              "hide": ["client_hidden"],
              "servers": {
                "fixture-server": {
                  "default": "allow",
                  "tools": {
                    "wire_money": { "action": "deny", "reason": "payments need a human" },
                    "run_command": { "arguments": "input_schema" }
                  }
                }
              }
            }
            """;

    /** Not a policy: an unknown key and a bad window. */
    static final String INVALID = """
            { "version": "1", "defualt": "allow",
              "tools": { "echo": { "limits": [ { "counter": "c", "window": "fortnight", "max": 1 } ] } } }
            """;

    /** {@link #SERVER} with a {@code require} on echo (checked after its schema, so the shared scenarios hold): {@link RequireScenario}. */
    static String serverWithEchoRequire() {
        String echo = "\"echo\": { \"arguments\": \"input_schema\" }";
        if (!SERVER.contains(echo)) {
            throw new IllegalStateException("the shared policy's echo rule changed: " + SERVER);
        }
        return SERVER.replace(echo, "\"echo\": { \"arguments\": \"input_schema\", "
                + "\"require\": [ { \"path\": \"text\", \"op\": \"max_length\", \"value\": 20 } ] }");
    }

    private Policies() {
    }
}
