package dev.mcppolicy.agent.cli;

import dev.mcppolicy.agent.scan.ScanCommand;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;

/**
 * {@code java -jar mcp-policy-agent.jar ...}, once the doorman ({@code AgentMain}) has handed over to the agent's
 * class loader, where the bundled libraries the commands use are: the policy command line (SPEC §9), which lives in
 * policy-runtime, and the agent's own {@code approvals} (it asks a running agent's admin endpoint), {@code scan} and
 * {@code attach}.
 */
public final class AgentCommands {
    static final String CLI_CLASS = "dev.mcppolicy.cli.PolicyCli";

    private AgentCommands() {
    }

    public static void main(String[] args) throws Throwable {
        String[] rest = args.length > 0 ? Arrays.copyOfRange(args, 1, args.length) : args;
        if (args.length > 0 && args[0].equals("approvals")) {
            System.exit(ApprovalsCommand.run(rest, System.out, System.err));
            return;
        }
        if (args.length > 0 && args[0].equals("scan")) {
            System.exit(ScanCommand.run(rest, System.out, System.err));
            return;
        }
        if (args.length > 0 && args[0].equals("attach")) {
            System.exit(AttachCommand.run(rest, System.out, System.err));
            return;
        }
        Class<?> cli;
        try {
            // looked up by name, so that the agent does not depend on the command line's internals
            cli = Class.forName(CLI_CLASS, true, AgentCommands.class.getClassLoader());
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
