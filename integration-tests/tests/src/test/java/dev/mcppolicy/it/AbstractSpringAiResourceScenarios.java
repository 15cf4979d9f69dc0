package dev.mcppolicy.it;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The shared resource scenarios (SPEC §12–§13) with the Spring AI fixture server app
 * ({@code fixtures/spring-ai-<version>[-stdio]}, run as {@code java -javaagent:... -jar app.jar}) whose catalog
 * ({@code -Dfixture.catalog=true}) is offered as Spring AI users offer one: beans of the SDK's
 * {@code List<SyncResourceSpecification>}, {@code List<SyncResourceTemplateSpecification>} (where the line collects them)
 * and {@code List<SyncPromptSpecification>}, and the tools {@code cat} and {@code big} as {@code @Tool} methods. The client
 * is the SDK fixture client of the SDK version that Spring AI brings.
 */
abstract class AbstractSpringAiResourceScenarios extends AbstractResourceScenarios {
    /** The fixture module, {@code spring-ai-<this>}: Spring AI's version, then {@code -stdio} for the app on that starter. */
    abstract String springAiFixture();

    /** Spring AI's server starter takes the transport from the profile of the same name (see the app's properties). */
    @Override
    McpPair startPair(String name, String serverPolicy, String clientPolicy, List<String> serverJvmArgs) throws Exception {
        List<String> server = new ArrayList<>(serverJvmArgs);
        server.addAll(List.of("-jar", Fixtures.springApp(springAiFixture()).toString(), "--spring.profiles.active=" + transport()));
        return McpPair.startWithServer(name, sdkVersion(), transport(), false, serverPolicy, clientPolicy, "", "", server, null);
    }

    /** The SDK's server, loaded from the fat jar's nested jar: {@code mcp} before 0.14, {@code mcp-core} from then on. */
    @Override
    List<String> serverHookLines() {
        return List.of("\\[mcp-policy] instrumented io\\.modelcontextprotocol\\.server\\.McpAsyncServer \\(mcp(-core)? "
                + Pattern.quote(sdkVersion()) + "\\): tools/call, tools/list, " + AbstractToolCallScenarios.SERVER_RESOURCE_HOOKS);
    }
}
