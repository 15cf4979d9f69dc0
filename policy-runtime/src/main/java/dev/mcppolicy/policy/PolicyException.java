package dev.mcppolicy.policy;

import java.util.List;

/** A policy that cannot be used, with every error found in it. Carries no stack trace: these are user mistakes. */
public final class PolicyException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final List<PolicyError> errors;

    public PolicyException(String source, List<PolicyError> errors) {
        super(summary(source, errors), null, false, false);
        this.source = source;
        this.errors = List.copyOf(errors);
    }

    /** Where the policy came from (a file name), for messages. */
    public String source() {
        return source;
    }

    public List<PolicyError> errors() {
        return errors;
    }

    private static String summary(String source, List<PolicyError> errors) {
        StringBuilder text = new StringBuilder()
                .append(source).append(": ")
                .append(errors.size()).append(errors.size() == 1 ? " error" : " errors");
        for (PolicyError error : errors) {
            text.append(System.lineSeparator()).append("  ").append(error);
        }
        return text.toString();
    }
}
