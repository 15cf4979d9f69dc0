package dev.mcppolicy.cli;

import dev.mcppolicy.engine.Caller;
import dev.mcppolicy.engine.Decision;
import dev.mcppolicy.engine.Effect;
import dev.mcppolicy.engine.PolicyEngine;
import dev.mcppolicy.engine.Side;
import dev.mcppolicy.engine.Kind;
import dev.mcppolicy.engine.ToolCall;
import dev.mcppolicy.json.JsonPointers;
import dev.mcppolicy.pins.PinsFile;
import dev.mcppolicy.policy.Approval;
import dev.mcppolicy.policy.Durations;
import dev.mcppolicy.policy.Policy;
import dev.mcppolicy.policy.PolicyError;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.PolicyLint;
import dev.mcppolicy.policy.PolicyParser;
import dev.mcppolicy.policy.ResourceUris;
import dev.mcppolicy.policy.ResultRule;
import dev.mcppolicy.policy.ToolRule;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The policy command line (SPEC §9): {@code check}, {@code explain} and {@code test}. The agent jar
 * exposes it as {@code java -jar mcp-policy-agent.jar <command>}.
 *
 * <p>Exit codes: {@code check} 0 or 1; {@code explain} 0; {@code test} the number of failed cases
 * (at most 125); 2 for a usage error or an unreadable input.
 */
public final class PolicyCli {
    static final int USAGE = 2;

    private static final String HELP = String.join(System.lineSeparator(),
            "usage: java -jar mcp-policy-agent.jar <command> ...",
            "  check POLICY                      validate a policy file; exit 1 with every error, 0 with only WARN lines",
            "  explain POLICY (--tool T | --resource URI | --prompt P) [--args JSON] [--client C] [--session S] [--server S]"
                    + " [--caller JSON]",
            "                                    decide one call and say which rule decided it",
            "  test POLICY CASES                 run table-driven policy tests; exit code = failures",
            "  scan [-o FILE] [--format json|yaml] [--timeout 10s] (-- COMMAND ARGS... | --url URL [--header \"N: v\"]...)",
            "                                    ask an MCP server for its tools and write a starter default-deny policy",
            "  approvals list|approve ID|deny ID [--reason R] [--approver NAME] [--admin 127.0.0.1:PORT] [--token-file F]",
            "                                    the calls a running agent holds for approval (its admin endpoint)",
            "  --version                         print the agent's version");

    private final PrintStream out;
    private final PrintStream err;

    PolicyCli(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command and returns its exit code; never calls {@code System.exit}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return new PolicyCli(out, err).dispatch(args);
    }

    private int dispatch(String[] args) {
        if (args.length == 0 || args[0].equals("help") || args[0].equals("--help") || args[0].equals("-h")) {
            (args.length == 0 ? err : out).println(HELP);
            return args.length == 0 ? USAGE : 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        try {
            switch (args[0]) {
                case "check": return check(rest);
                case "explain": return explain(rest);
                case "test": return new CaseRunner(out, err).run(rest);
                default:
                    err.println("unknown command '" + args[0] + "'");
                    err.println(HELP);
                    return USAGE;
            }
        } catch (UsageException e) {
            err.println(e.getMessage());
            err.println(HELP);
            return USAGE;
        }
    }

    private int check(String[] args) {
        if (args.length != 1) {
            throw new UsageException("check takes exactly one argument: the policy file");
        }
        try {
            Policy policy = PolicyParser.parse(Path.of(args[0]));
            int servers = policy.servers().size();
            out.println(args[0] + ": OK (" + policy.tools().size() + " tool rules"
                    + (policy.resources().isEmpty() ? "" : ", " + policy.resources().size() + " resource rules")
                    + (policy.prompts().isEmpty() ? "" : ", " + policy.prompts().size() + " prompt rules")
                    + (servers > 0 ? ", " + servers + " server sections" : "")
                    + ", default " + policy.defaultAction().word() + ", mode " + policy.mode().word()
                    + ", sha256 " + policy.sha256() + ")");
            PolicyLint.warnings(policy).forEach(warning -> out.println("WARN " + warning));
            if (policy.pinning().pinsFile() != null) {
                Path base = Path.of(args[0]).toAbsolutePath().getParent();
                Path pinsFile = base.resolve(policy.pinning().pinsFile()).normalize();
                try {
                    PinsFile pins = PinsFile.read(pinsFile);
                    out.println("PINS " + pinsFile + ": OK (" + pins.servers().size() + " servers, " + pins.toolCount() + " tools)");
                } catch (PolicyException e) {
                    // the agent would hide every tool of a pinned server (fail closed): as bad as a policy error
                    printErrors(e, out);
                    return 1;
                }
            }
            policy.tools().forEach((key, rule) -> {
                if (rule.approval() != null && rule.approval().via() == Approval.Via.ELICITATION) {
                    out.println("APPROVAL /tools/" + JsonPointers.escape(key) + ": " + approvalWords(rule.approval(), Side.SERVER));
                }
            });
            return 0;
        } catch (PolicyException e) {
            printErrors(e, out);
            return 1;
        }
    }

    private int explain(String[] args) {
        Options options = Options.parse(args, List.of("--tool", "--resource", "--prompt", "--args", "--client", "--session", "--server",
                "--caller"));
        if (options.positional().size() != 1) {
            throw new UsageException("explain takes one policy file");
        }
        Kind kind = null;
        for (Kind candidate : Kind.values()) {
            if (options.has("--" + candidate.word())) {
                if (kind != null) {
                    throw new UsageException("explain takes one of --tool, --resource and --prompt");
                }
                kind = candidate;
            }
        }
        if (kind == null) {
            throw new UsageException("explain needs --tool T, --resource URI or --prompt P");
        }
        String tool = options.get("--" + kind.word());
        Map<String, Object> arguments = options.has("--args") ? Json.object(options.get("--args"), "--args") : Map.of();
        Policy policy = load(options.positional().get(0));
        if (policy == null) {
            return USAGE;
        }
        String server = options.get("--server");
        Side side = server == null ? Side.SERVER : Side.CLIENT;
        Caller caller = Caller.unverified();
        if (options.has("--caller")) {
            try {
                caller = CallerArgument.parse(Json.object(options.get("--caller"), "--caller"), "--caller");
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        ToolCall call = (kind == Kind.RESOURCE ? ToolCall.resource(side, server, tool, options.get("--session"), options.get("--client"))
                : new ToolCall(side, server, tool, arguments, options.get("--session"), options.get("--client"), null, kind)).withCaller(caller);
        if (kind == Kind.RESOURCE) {
            String normalized = ResourceUris.normalizeOrNull(tool);
            if (normalized != null && !normalized.equals(tool)) {
                out.println("matched:  " + normalized);
            }
        }
        Decision decision = PolicyEngine.of(policy, Clock.systemUTC()).decide(call);
        out.println("decision: " + decision.effect() + (decision.isMonitored() ? " (monitor mode; would be " + decision.wouldBe() + ")" : ""));
        out.println("rule:     " + decision.rule());
        if (decision.argument() != null) {
            out.println("argument: " + decision.argument());
        }
        if (decision.reason() != null) {
            out.println("reason:   " + decision.reason());
        }
        if (decision.retryAfterSeconds() > 0) {
            out.println("retry:    after " + decision.retryAfterSeconds() + "s");
        }
        if (decision.wouldBe() == Effect.DENY) {
            out.println("caller:   " + decision.callerMessage(kind, tool));
        }
        ToolRule rule = policy.ruleAt(decision.rule());
        if (decision.wouldBe() != Effect.DENY && rule != null && rule.result() != null) {
            out.println("result:   judged by " + decision.rule() + "/result" + resultWords(rule.result()));
        }
        if (decision.wouldBe() == Effect.REQUIRE_APPROVAL && rule != null && rule.approval() != null) {
            out.println("approval: " + approvalWords(rule.approval(), call.side()));
        }
        return 0;
    }

    private static String resultWords(ResultRule result) {
        StringBuilder words = new StringBuilder(" (max_bytes ").append(result.maxBytes());
        if (result.secrets()) {
            words.append(", redacts secrets");
        }
        for (ResultRule.Redaction redaction : result.redactions()) {
            words.append(", redacts ").append(redaction.name());
        }
        if (!result.denyIf().isEmpty()) {
            words.append(", ").append(result.denyIf().size()).append(" deny_if");
        }
        return words.append(')').toString();
    }

    /** How a held call is asked, for {@code check} and {@code explain}. */
    static String approvalWords(Approval approval, Side side) {
        String timeout = "timeout " + Durations.format(approval.timeout());
        if (approval.via() == Approval.Via.ADMIN) {
            return "via admin (the admin endpoint, page and approvals command), " + timeout;
        }
        if (side == Side.CLIENT) {
            return "via admin (elicitation asks the client of a server-side call; on the client side it is ignored), " + timeout;
        }
        return "via elicitation (the calling MCP client's user, when the client declared elicitation; listed on the admin"
                + " channel too, and asked there alone otherwise), " + timeout;
    }

    /** The parsed policy, or {@code null} after printing why it cannot be used. */
    Policy load(String file) {
        try {
            return PolicyParser.parse(Path.of(file));
        } catch (PolicyException e) {
            printErrors(e, err);
            return null;
        }
    }

    static void printErrors(PolicyException e, PrintStream to) {
        to.println(e.source() + ": " + e.errors().size() + (e.errors().size() == 1 ? " error" : " errors"));
        for (PolicyError error : e.errors()) {
            String position = error.line() > 0 ? e.source() + ":" + error.line() + ":" + error.column() + ": " : e.source() + ": ";
            to.println("  " + position + (error.pointer().isEmpty() ? "" : error.pointer() + ": ") + error.message());
        }
    }

    /** A command line that cannot be run: reported with the usage text, exit 2. */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message, null, false, false);
        }
    }
}
