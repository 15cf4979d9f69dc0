package dev.mcppolicy.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SPEC §12–§13 on Spring AI 1.0.3 (SDK 0.10.0), on the stdio server starter ({@code spring-ai-starter-mcp-server}).
 *
 * <p>Spring AI 1.0 cannot offer resource templates: its server auto-configuration collects resource and prompt
 * specifications but never calls the SDK 0.10 builder's {@code resourceTemplates} (SDK 0.10 has no template
 * specification to collect), and the one other way, a resource whose URI is a template, SDK 0.10 lists under
 * {@code resources/list} as well, which would break the resource list. So the two list scenarios, and only they, are
 * overridden: the same resources and prompts as the shared scenarios, and an empty {@code resources/templates/list}.
 */
class SpringAi103ResourcesIT extends AbstractSpringAiResourceScenarios {
    private McpPair server;
    private McpPair client;

    @Override
    String springAiFixture() {
        return "1.0.3-stdio";
    }

    @Override
    String sdkVersion() {
        return "0.10.0";
    }

    @Override
    String transport() {
        return "stdio";
    }

    /** Keeps the server-judging and the client-judging pair for the overridden list scenarios. */
    @Override
    McpPair startPair(String name, String serverPolicy, String clientPolicy, List<String> serverJvmArgs) throws Exception {
        McpPair pair = super.startPair(name, serverPolicy, clientPolicy, serverJvmArgs);
        if (name.endsWith("-server")) {
            server = pair;
        } else {
            client = pair;
        }
        return pair;
    }

    @Test
    @Override
    void listsOnlyTheResourcesTemplatesAndPromptsTheServerPolicyLetsThrough() throws Exception {
        assertThat(server.command("resources")).as(server.dump()).isEqualTo("RESOURCES file:///public/keys.txt,file:///public/readme.txt");
        assertThat(server.command("templates")).isEqualTo("TEMPLATES ");
        assertThat(server.command("prompts")).isEqualTo("PROMPTS leaky,summarize");
    }

    @Test
    @Override
    void listsOnlyWhatTheClientPolicyLetsThrough() throws Exception {
        assertThat(client.command("resources")).as(client.dump()).isEqualTo("RESOURCES file:///public/keys.txt,file:///public/readme.txt");
        assertThat(client.command("templates")).isEqualTo("TEMPLATES ");
        assertThat(client.command("prompts")).isEqualTo("PROMPTS leaky,summarize");
    }
}
