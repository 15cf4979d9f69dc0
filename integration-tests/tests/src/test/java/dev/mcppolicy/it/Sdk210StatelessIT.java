package dev.mcppolicy.it;

class Sdk210StatelessIT extends AbstractToolCallScenarios {
    @Override
    String sdkVersion() {
        return "2.1.0";
    }

    @Override
    String transport() {
        return "stateless";
    }
}
