package dev.mcppolicy.it;

/** SPEC §12–§13 on SDK 2.2.0 over stdio: resources, prompts and judged answers, server and client side. */
class Sdk220ResourcesIT extends AbstractResourceScenarios {
    @Override
    String sdkVersion() {
        return "2.2.0";
    }

    @Override
    String transport() {
        return "stdio";
    }
}
