package dev.mcppolicy.agent;

import java.lang.reflect.InvocationTargetException;

/**
 * {@code java -jar mcp-policy-agent.jar ...}: the doorman of the command line. It hands over to
 * {@code dev.mcppolicy.agent.cli.AgentCommands} on the agent's own class loader ({@link AgentLoader}), as
 * {@link AgentPremain} does for the agent: the bundled libraries the commands use (Jackson, SnakeYAML) are nested in
 * the jar, where only that loader finds them.
 */
public final class AgentMain {
    static final String COMMANDS = "dev.mcppolicy.agent.cli.AgentCommands";

    private AgentMain() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("version"))) {
            // read here, on the system class loader: nothing else of the agent loads for it
            System.out.println("mcp-policy-agent " + Agent.version());
            return;
        }
        Class<?> commands = Class.forName(COMMANDS, true, AgentLoader.of(AgentMain.class));
        try {
            commands.getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
