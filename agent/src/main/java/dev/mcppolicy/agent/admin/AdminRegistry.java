package dev.mcppolicy.agent.admin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Where a running agent leaves its admin address (and its random token's file) for the {@code approvals}
 * command line: {@code ~/.mcp-policy/agents/<pid>.properties}, readable only by the user, removed when the
 * JVM exits. Never holds a token itself.
 */
public final class AdminRegistry {
    private AdminRegistry() {
    }

    /** {@code ~/.mcp-policy/agents}. */
    public static Path directory() {
        return Path.of(System.getProperty("user.home"), ".mcp-policy", "agents");
    }

    /** One running agent's entry. */
    public record Entry(long pid, String url, String tokenFile) {
    }

    static void write(String url, Path tokenFile) {
        try {
            Path dir = directory();
            Files.createDirectories(dir);
            long pid = ProcessHandle.current().pid();
            Path file = dir.resolve(pid + ".properties");
            Properties properties = new Properties();
            properties.setProperty("pid", Long.toString(pid));
            properties.setProperty("url", url);
            if (tokenFile != null) {
                properties.setProperty("token_file", tokenFile.toString());
            }
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (var out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                properties.store(out, "mcp-policy agent admin endpoint");
            }
            file.toFile().deleteOnExit();
        } catch (IOException | RuntimeException e) {
            dev.mcppolicy.agent.Diagnostics.debug("admin: could not leave the address in " + directory() + ": " + e);
        }
    }

    /** The entries of agents still running. */
    public static List<Entry> running() throws IOException {
        List<Entry> entries = new ArrayList<>();
        Path dir = directory();
        if (!Files.isDirectory(dir)) {
            return entries;
        }
        try (var files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                if (!file.getFileName().toString().endsWith(".properties")) {
                    continue;
                }
                Properties properties = new Properties();
                try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    properties.load(in);
                } catch (IOException e) {
                    continue;
                }
                long pid;
                try {
                    pid = Long.parseLong(properties.getProperty("pid", ""));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    entries.add(new Entry(pid, properties.getProperty("url"), properties.getProperty("token_file")));
                }
            }
        }
        return entries;
    }
}
