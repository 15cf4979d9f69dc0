package dev.mcppolicy.agent;

import java.lang.reflect.InvocationTargetException;

/**
 * {@code java -jar mcp-policy-agent.jar ...}: the policy command line (SPEC §9), which lives in
 * policy-runtime, and {@code approvals ...}, the agent's own (it asks a running agent's admin endpoint). Looked up by name so that the agent does not depend on the CLI's internals.
 */
public final class AgentMain {
    static final String CLI_CLASS = "dev.mcppolicy.cli.PolicyCli";

    private AgentMain() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length > 0 && args[0].equals("approvals")) {
            // talks to a running agent's admin endpoint: the agent's own command, not the policy CLI's
            System.exit(dev.mcppolicy.agent.cli.ApprovalsCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length),
                    System.out, System.err));
            return;
        }
        if (args.length > 0 && args[0].equals("scan")) {
            System.exit(dev.mcppolicy.agent.scan.ScanCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
            return;
        }
        if (args.length > 0 && args[0].equals("attach")) {
            System.exit(dev.mcppolicy.agent.cli.AttachCommand.run(java.util.Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
            return;
        }
        Class<?> cli;
        try {
            cli = Class.forName(CLI_CLASS);
        } catch (ClassNotFoundException e) {
            System.err.println("mcp-policy: the policy command line is not part of this build (" + CLI_CLASS + ")");
            System.exit(2);
            return;
        }
        try {
            cli.getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
