package dev.mcppolicy.agent.admin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The admin endpoint's bearer token: the configured {@code admin_token}, or 32 random bytes written to a
 * new file only this user can read (mode 600, created so from the start), removed when the JVM exits.
 * Compared in constant time.
 */
final class AdminToken {
    private final byte[] token;
    /** Where the random token was written, or {@code null} when it was configured. */
    private final Path file;

    private AdminToken(String token, Path file) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.file = file;
    }

    static AdminToken configured(String token) {
        return new AdminToken(token, null);
    }

    /** A random token, written to a new file in {@code java.io.tmpdir}. */
    static AdminToken random() throws IOException {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Path dir = Paths.get(System.getProperty("java.io.tmpdir"));
        String prefix = "mcp-policy-admin-" + ProcessHandle.current().pid() + "-";
        Path file;
        try {
            file = Files.createTempFile(dir, prefix, ".token", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException notPosix) {
            file = Files.createTempFile(dir, prefix, ".token"); // Windows: the user's temp directory is private
        }
        file.toFile().deleteOnExit();
        Files.write(file, token.getBytes(StandardCharsets.UTF_8));
        return new AdminToken(token, file);
    }

    /** Whether {@code header} is {@code Bearer <this token>}. */
    boolean admits(String header) {
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return MessageDigest.isEqual(token, header.substring(7).trim().getBytes(StandardCharsets.UTF_8));
    }

    Path file() {
        return file;
    }
}
