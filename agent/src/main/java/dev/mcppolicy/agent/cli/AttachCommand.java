package dev.mcppolicy.agent.cli;

import dev.mcppolicy.agent.attach.AttachReport;
import dev.mcppolicy.agent.config.AgentConfig;
import dev.mcppolicy.policy.PolicyException;
import dev.mcppolicy.policy.PolicyParser;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;
import net.bytebuddy.agent.ByteBuddyAgent;

/**
 * {@code java -jar mcp-policy-agent.jar attach PID [--policy FILE] [key=value ...]} (SPEC §9): loads this
 * jar as an agent into a running JVM (Byte Buddy's attach, over the JDK's attach API), waits for the
 * report the agent writes once its canary and policy have an answer, and prints it. An attach to a JVM
 * that has the agent already loads nothing and, with {@code --policy}, switches the running agent to
 * that file. Each way it cannot attach is a line and an exit code, never a stack trace: see {@link Exit}.
 */
public final class AttachCommand {
    static final String USAGE = "usage: attach PID [--policy FILE] [key=value ...]";
    /** How long to wait for the agent's report: longer than the agent's own wait for its canary and policy. */
    static final long REPORT_WAIT_MILLIS = 40_000;
    private static final long POLL_MILLIS = 25;

    /** The exit codes, as docs/operations.md's table ("Attach to a running JVM") lists them. */
    enum Exit {
        /** Attached and the canary fired; or the agent was there already (and {@code --policy}, if given, is in force). */
        OK(0),
        /** Loaded, but the agent reports a problem: its canary did not fire, its hooks or start failed, no policy is in force, or the switch was refused. */
        AGENT_PROBLEM(1),
        USAGE(2),
        NO_SUCH_PROCESS(3),
        NOT_A_JVM(4),
        ANOTHER_USER(5),
        ATTACH_DISABLED(6),
        NO_ATTACH_MODULE(7),
        ATTACH_FAILED(8);

        final int code;

        Exit(int code) {
            this.code = code;
        }
    }

    private final PrintStream out;
    private final PrintStream err;

    AttachCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return new AttachCommand(out, err).attach(args).code;
    }

    Exit attach(String[] args) {
        String pidText = null;
        Path policy = null;
        List<String> options = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--policy")) {
                if (i + 1 >= args.length) {
                    return usage("--policy needs a file");
                }
                policy = Path.of(args[++i]).toAbsolutePath().normalize();
            } else if (arg.startsWith("-")) {
                return usage("unknown option " + arg);
            } else if (arg.contains("=")) {
                if (arg.contains(",")) {
                    return usage("an option value cannot contain ',' (agent options are key=value,key=value): " + arg);
                }
                options.add(arg);
            } else if (pidText == null) {
                pidText = arg;
            } else {
                return usage("one PID only, not also " + arg);
            }
        }
        if (pidText == null) {
            return usage("which JVM? give its PID (jps or jcmd lists the JVMs)");
        }
        long pid;
        try {
            pid = Long.parseLong(pidText);
        } catch (NumberFormatException e) {
            pid = -1;
        }
        if (pid <= 0) {
            return usage("not a process id: " + pidText);
        }
        if (policy != null) {
            String text = policy.toString();
            if (text.contains(",") || text.indexOf('\n') >= 0) {
                return usage("a policy path with ',' or a line break cannot be passed to the agent: " + text);
            }
            Exit checked = checkPolicy(policy);
            if (checked != null) {
                return checked;
            }
            options.add("policy=" + text);
        }
        String joined = String.join(",", options);
        List<String> problems = AgentConfig.resolve(joined, Map.of(), Map.of()).problems();
        if (!problems.isEmpty()) {
            for (String problem : problems) {
                err.println("attach: " + problem);
            }
            err.println(USAGE);
            return Exit.USAGE;
        }
        if (ModuleLayer.boot().findModule("jdk.attach").isEmpty()) {
            err.println("attach: this Java (" + System.getProperty("java.home") + ") has no jdk.attach module, so it cannot attach"
                    + " to another JVM; run the command with a JDK's java (a JRE or a jlink image without jdk.attach cannot)");
            return Exit.NO_ATTACH_MODULE;
        }
        if (pid == ProcessHandle.current().pid()) {
            return usage(pid + " is this command's own JVM");
        }
        Target target = Target.of(pid);
        Exit refused = refuse(target);
        if (refused != null) {
            return refused;
        }
        Path jar = ownJar();
        if (jar == null) {
            err.println("attach: run the command from the agent jar (java -jar mcp-policy-agent.jar attach ...): it loads that jar");
            return Exit.USAGE;
        }
        Path directory = null;
        try {
            directory = reportDirectory(target);
            Path report = directory.resolve("report.properties");
            Exit failed = load(jar, target, AttachReport.agentArgs(report, joined));
            if (failed != null) {
                return failed;
            }
            Properties answer = awaitReport(report, target);
            if (answer == null) {
                return Exit.ATTACH_FAILED;
            }
            long otherOptions = options.stream().filter(option -> !option.startsWith("policy=")).count();
            return print(target, answer, otherOptions);
        } catch (IOException e) {
            err.println("attach: cannot make a place for the agent's report: " + e);
            return Exit.ATTACH_FAILED;
        } finally {
            delete(directory);
        }
    }

    private Exit usage(String problem) {
        err.println("attach: " + problem);
        err.println(USAGE);
        return Exit.USAGE;
    }

    /** The policy is checked here first: an invalid one would leave every call to on_error. */
    private Exit checkPolicy(Path policy) {
        if (!Files.isRegularFile(policy)) {
            err.println("attach: no policy file " + policy);
            return Exit.USAGE;
        }
        try {
            PolicyParser.parse(policy);
            return null;
        } catch (PolicyException e) {
            err.println("attach: " + e.getMessage());
            err.println("attach: nothing was attached; fix the policy (java -jar mcp-policy-agent.jar check " + policy + ")");
            return Exit.USAGE;
        }
    }

    /** What can be told about the target before attaching, on Linux from {@code /proc}. */
    record Target(long pid, String command, Integer uid, Integer ownUid, Boolean jvm) {
        static Target of(long pid) {
            Optional<ProcessHandle> handle = ProcessHandle.of(pid);
            if (handle.isEmpty() || !handle.get().isAlive()) {
                return new Target(pid, null, null, null, null);
            }
            String command = handle.get().info().command().orElse(null);
            Path proc = Path.of("/proc", String.valueOf(pid));
            Integer uid = null;
            Integer ownUid = null;
            Boolean jvm = null;
            if (Files.isDirectory(proc)) {
                try {
                    uid = (Integer) Files.getAttribute(proc, "unix:uid");
                    ownUid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
                } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
                    uid = null;
                }
                jvm = mapsLibjvm(proc.resolve("maps"));
                if (command == null) {
                    command = comm(proc);
                }
            }
            return new Target(pid, command, uid, ownUid, jvm);
        }

        boolean exists() {
            return command != null || uid != null || jvm != null || ProcessHandle.of(pid).isPresent();
        }

        boolean anotherUser() {
            return uid != null && ownUid != null && !uid.equals(ownUid) && ownUid != 0;
        }

        String shown() {
            return pid + (command == null ? "" : " (" + command + ")");
        }

        /** Whether the process has libjvm mapped: {@code null} when that cannot be read (another user's process). */
        private static Boolean mapsLibjvm(Path maps) {
            try (Stream<String> lines = Files.lines(maps)) {
                return lines.anyMatch(line -> line.endsWith("/libjvm.so"));
            } catch (AccessDeniedException e) {
                return null;
            } catch (IOException | java.io.UncheckedIOException | SecurityException e) {
                return null;
            }
        }

        private static String comm(Path proc) {
            try {
                return Files.readString(proc.resolve("comm")).trim();
            } catch (IOException e) {
                return null;
            }
        }
    }

    /**
     * The cases told apart before attaching. A process that is not a JVM must never get the attach
     * request: HotSpot's is a SIGQUIT, which ends most other programs.
     */
    private Exit refuse(Target target) {
        if (!target.exists()) {
            err.println("attach: no process " + target.pid());
            return Exit.NO_SUCH_PROCESS;
        }
        if (target.anotherUser()) {
            err.println("attach: " + target.shown() + " belongs to another user (uid " + target.uid() + "; this command runs as uid "
                    + target.ownUid() + "); the attach API only attaches to the same user's JVMs: run the command as that user");
            return Exit.ANOTHER_USER;
        }
        if (Boolean.FALSE.equals(target.jvm())) {
            err.println("attach: " + target.shown() + " is not a Java virtual machine (no libjvm.so in it)");
            return Exit.NOT_A_JVM;
        }
        return null;
    }

    private static Path ownJar() {
        try {
            Path location = Path.of(AttachCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.isRegularFile(location) && location.toString().endsWith(".jar") ? location : null;
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** A directory only the target's user can write to (root hands it over to that user). */
    private static Path reportDirectory(Target target) throws IOException {
        Path directory = Files.createTempDirectory("mcp-policy-attach-");
        if (target.uid() != null && target.ownUid() != null && target.ownUid() == 0 && target.uid() != 0) {
            Files.setAttribute(directory, "unix:uid", target.uid());
        }
        return directory;
    }

    private Exit load(Path jar, Target target, String agentArgs) {
        try {
            ByteBuddyAgent.attach(jar.toFile(), String.valueOf(target.pid()), agentArgs);
            return null;
        } catch (Throwable t) {
            return explain(target, t);
        }
    }

    /** One line for an attach that failed, by what the attach API said (its exceptions come wrapped). */
    Exit explain(Target target, Throwable failure) {
        List<String> kinds = new ArrayList<>();
        StringBuilder messages = new StringBuilder();
        String last = null;
        for (Throwable t = failure; t != null && kinds.size() < 10; t = t.getCause()) {
            kinds.add(t.getClass().getSimpleName());
            if (t.getMessage() != null) {
                messages.append(t.getMessage()).append('\n');
                last = t.getMessage();
            }
        }
        String text = messages.toString().toLowerCase(Locale.ROOT);
        String shown = target.shown();
        if (text.contains("no such process") || !ProcessHandle.of(target.pid()).isPresent()) {
            err.println("attach: no process " + target.pid() + " (it ended?)");
            return Exit.NO_SUCH_PROCESS;
        }
        if (text.contains("does not support the attach mechanism")) {
            err.println("attach: " + shown + " does not allow attaching: it was started with -XX:+DisableAttachMechanism;"
                    + " restart it without that option, or with -javaagent");
            return Exit.ATTACH_DISABLED;
        }
        if (text.contains("dynamic agent loading is not enabled") || text.contains("enabledynamicagentloading")) {
            err.println("attach: " + shown + " does not allow loading an agent: it was started with -XX:-EnableDynamicAgentLoading;"
                    + " restart it with -XX:+EnableDynamicAgentLoading, or with -javaagent");
            return Exit.ATTACH_DISABLED;
        }
        if (text.contains("permission denied") || text.contains("owned by") || text.contains("operation not permitted")) {
            err.println("attach: not allowed to attach to " + shown + " (" + oneLine(last) + "); a JVM of another user, or in another"
                    + " container: run the command as the JVM's user, in its container");
            return Exit.ANOTHER_USER;
        }
        if (text.contains("doesn't respond") || text.contains("unable to open socket file")) {
            err.println("attach: " + shown + " did not answer the attach request: it was started with -XX:+DisableAttachMechanism"
                    + " (and without its performance data, which would say so), or it is not answering signals");
            return Exit.ATTACH_DISABLED;
        }
        if (text.contains("no compatible attachment provider")) {
            err.println("attach: this Java (" + System.getProperty("java.home") + ") offers no way to attach; run the command with a JDK");
            return Exit.NO_ATTACH_MODULE;
        }
        err.println("attach: could not attach to " + shown + ": " + String.join(" / ", kinds) + ": " + oneLine(last));
        return Exit.ATTACH_FAILED;
    }

    private static String oneLine(String message) {
        return message == null ? "(no message)" : message.replace('\n', ' ').trim();
    }

    /** Waits for the report the agent writes whole; {@code null} after saying why when none comes. */
    private Properties awaitReport(Path report, Target target) {
        long deadline = System.nanoTime() + REPORT_WAIT_MILLIS * 1_000_000L;
        while (System.nanoTime() < deadline) {
            if (Files.isRegularFile(report)) {
                try {
                    return AttachReport.read(report);
                } catch (NoSuchFileException e) {
                    // renamed over between the look and the read: look again
                } catch (IOException e) {
                    err.println("attach: cannot read the agent's report " + report + ": " + e);
                    return null;
                }
            }
            if (!ProcessHandle.of(target.pid()).map(ProcessHandle::isAlive).orElse(false)) {
                err.println("attach: " + target.shown() + " ended before the agent reported");
                return null;
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        err.println("attach: the agent was loaded into " + target.shown() + " but sent no report within " + REPORT_WAIT_MILLIS / 1000
                + " s; its startup lines are on that JVM's stderr");
        return null;
    }

    private Exit print(Target target, Properties report, long otherOptions) {
        String outcome = report.getProperty(AttachReport.OUTCOME, "");
        if (AttachReport.FAILED.equals(outcome)) {
            err.println("attach: the agent failed to start in " + target.shown() + ": " + report.getProperty(AttachReport.ERROR)
                    + "; MCP tool calls there are NOT policed (its stderr has the details)");
            return Exit.AGENT_PROBLEM;
        }
        boolean again = AttachReport.ALREADY_RUNNING.equals(outcome);
        if (again) {
            out.println("already attached: " + target.shown() + " runs mcp-policy-agent " + report.getProperty(AttachReport.VERSION, "?")
                    + ("true".equals(report.getProperty(AttachReport.ATTACHED)) ? " (attached earlier)" : " (from -javaagent)")
                    + "; no second agent was loaded");
            if (report.getProperty(AttachReport.ERROR) != null) {
                err.println("attach: " + report.getProperty(AttachReport.ERROR));
                return Exit.AGENT_PROBLEM;
            }
            if (otherOptions > 0) {
                err.println("attach: the options other than --policy are not applied to a running agent; they take effect at its next start");
            }
        } else {
            out.println("attached mcp-policy-agent " + report.getProperty(AttachReport.VERSION, "?") + " to " + target.shown() + " (Java "
                    + report.getProperty(AttachReport.JAVA, "?") + ")");
        }
        boolean problem = false;
        List<String> woven = AttachReport.list(report, AttachReport.INSTRUMENTED);
        for (String type : woven) {
            out.println("instrumented " + type);
        }
        for (String missing : AttachReport.list(report, AttachReport.MISSING)) {
            out.println("NOT instrumented " + missing + " (these calls are NOT policed)");
        }
        if (woven.isEmpty() && !again) {
            out.println("no MCP class is loaded there yet: the hooks apply as the first ones load");
        }
        String hooks = report.getProperty(AttachReport.HOOKS, "");
        if (hooks.equals("FAILED")) {
            out.println("hooks: FAILED: " + report.getProperty(AttachReport.HOOKS_ERROR) + "; MCP tool calls are NOT policed");
            problem = true;
        }
        String canary = report.getProperty(AttachReport.CANARY, "NOT_RUN");
        switch (canary) {
            case "HOOKS_FIRE":
                out.println("canary: the hooks fire");
                break;
            case "NOT_RUN":
                if (!again || !hooks.equals("WAITING_FOR_MCP")) {
                    out.println("canary: did not run; MCP tool calls may NOT be policed");
                    problem = problem || !again;
                }
                break;
            default:
                out.println("canary: the hooks did NOT fire (" + canary + ": " + report.getProperty(AttachReport.CANARY_DETAIL)
                        + "); MCP tool calls are NOT policed");
                problem = true;
        }
        String policy = report.getProperty(AttachReport.POLICY, "NOT_READ");
        if (policy.equals("LOADED")) {
            out.println("policy: " + report.getProperty(AttachReport.POLICY_PATH) + " sha256=" + report.getProperty(AttachReport.POLICY_SHA256)
                    + " mode=" + report.getProperty(AttachReport.POLICY_MODE) + " default=" + report.getProperty(AttachReport.POLICY_DEFAULT));
        } else if (policy.equals("UNAVAILABLE")) {
            out.println("policy: UNAVAILABLE, every tool call is answered by on_error: " + oneLine(report.getProperty(AttachReport.POLICY_ERRORS)));
            problem = true;
        } else {
            out.println("policy: not read yet (it is read when the first MCP class loads)");
            problem = problem || !again;
        }
        String switched = report.getProperty(AttachReport.SWITCH);
        if (switched != null) {
            String detail = report.getProperty(AttachReport.SWITCH_DETAIL, "");
            switch (switched) {
                case AttachReport.APPLIED:
                    out.println("policy switched to " + detail);
                    break;
                case AttachReport.UNCHANGED:
                    out.println("policy unchanged: " + detail);
                    break;
                default:
                    err.println("attach: the policy was NOT switched: " + oneLine(detail) + "; the policy in force stays");
                    problem = true;
            }
        }
        return problem ? Exit.AGENT_PROBLEM : Exit.OK;
    }

    private static void delete(Path directory) {
        if (directory == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException | java.io.UncheckedIOException e) {
            // a temporary directory left behind
        }
    }
}
