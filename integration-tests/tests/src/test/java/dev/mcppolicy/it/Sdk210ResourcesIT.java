package dev.mcppolicy.it;

/** SPEC §12–§13 on SDK 2.1.0 over streamable: resources, prompts and judged answers, server and client side. */
class Sdk210ResourcesIT extends AbstractResourceScenarios {
    @Override
    String sdkVersion() {
        return "2.1.0";
    }

    @Override
    String transport() {
        return "streamable";
    }
}
