package dev.mcppolicy.it;

/** SPEC §12–§13 on SDK 1.1.5 over stdio: resources, prompts and judged answers, server and client side. */
class Sdk115ResourcesIT extends AbstractResourceScenarios {
    @Override
    String sdkVersion() {
        return "1.1.5";
    }

    @Override
    String transport() {
        return "stdio";
    }
}
