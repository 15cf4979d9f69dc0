package dev.mcppolicy.examples.spring;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot MCP server on Spring AI's server starter (streamable HTTP at {@code /mcp}), its tools the
 * {@code @Tool} methods of {@link SandboxExecTools}, with no policy code: {@code java -javaagent:mcp-policy-agent.jar
 * -jar spring-ai-app.jar} adds the policy.
 */
@SpringBootApplication
public class SandboxApp {
    public static void main(String[] args) {
        SpringApplication.run(SandboxApp.class, args);
    }

    @Bean
    ToolCallbackProvider sandboxTools(SandboxExecTools tools) {
        return MethodToolCallbackProvider.builder().toolObjects(tools).build();
    }
}
