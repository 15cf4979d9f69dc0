package dev.mcppolicy.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code --name value} options and positional arguments, as the CLI commands take them. */
record Options(Map<String, String> named, List<String> positional) {

    static Options parse(String[] args, List<String> known) {
        Map<String, String> named = new HashMap<>();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("--")) {
                String name = arg;
                String value;
                int equals = arg.indexOf('=');
                if (equals > 0) {
                    name = arg.substring(0, equals);
                    value = arg.substring(equals + 1);
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    throw new PolicyCli.UsageException("option " + arg + " needs a value");
                }
                if (!known.contains(name)) {
                    throw new PolicyCli.UsageException("unknown option " + name + "; expected one of " + String.join(", ", known));
                }
                named.put(name, value);
            } else {
                positional.add(arg);
            }
        }
        return new Options(named, positional);
    }

    boolean has(String name) {
        return named.containsKey(name);
    }

    String get(String name) {
        return named.get(name);
    }

    String require(String name) {
        String value = named.get(name);
        if (value == null) {
            throw new PolicyCli.UsageException("missing required option " + name);
        }
        return value;
    }
}
