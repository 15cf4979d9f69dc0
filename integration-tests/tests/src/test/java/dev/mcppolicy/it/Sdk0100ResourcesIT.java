package dev.mcppolicy.it;

/** SPEC §12–§13 on SDK 0.10.0 over stdio: resources, prompts and judged answers, server and client side. */
class Sdk0100ResourcesIT extends AbstractResourceScenarios {
    @Override
    String sdkVersion() {
        return "0.10.0";
    }

    @Override
    String transport() {
        return "stdio";
    }
}
