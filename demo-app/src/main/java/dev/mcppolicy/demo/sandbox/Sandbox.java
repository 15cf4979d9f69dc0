package dev.mcppolicy.demo.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The one directory the server works in: commands run there and file tools cannot leave it. A path
 * escapes when, once normalized and with every existing symbolic link followed, it is not under the
 * root; {@code ../x}, {@code /etc/passwd} and a link planted by a command to {@code /} all do.
 */
public final class Sandbox {
    private final Path root;
    private final boolean temporary;

    private Sandbox(Path root, boolean temporary) {
        this.root = root;
        this.temporary = temporary;
    }

    /** A fresh sandbox in the system's temporary directory, removed by {@link #deleteIfTemporary()}. */
    public static Sandbox createTemporary() throws IOException {
        return new Sandbox(Files.createTempDirectory("mcp-sandbox-").toRealPath(), true);
    }

    /** A sandbox in {@code directory}, created if missing and kept on exit. */
    public static Sandbox at(Path directory) throws IOException {
        Files.createDirectories(directory);
        return new Sandbox(directory.toRealPath(), false);
    }

    public Path root() {
        return root;
    }

    /**
     * Resolves a path given by a caller, relative to the root (an absolute path must lie inside it).
     *
     * @throws SandboxEscapeException when the path leads outside the root
     */
    public Path resolve(String path) {
        if (path == null || path.isBlank()) {
            throw new SandboxEscapeException(String.valueOf(path), "the path is empty");
        }
        if (path.indexOf('\0') >= 0) {
            throw new SandboxEscapeException(path, "the path contains a NUL character");
        }
        Path candidate = root.resolve(path).normalize();
        if (!candidate.startsWith(root)) {
            throw new SandboxEscapeException(path, "the path leads outside the sandbox");
        }
        Path existing = candidate;
        while (!Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            existing = existing.getParent();
        }
        try {
            if (!existing.toRealPath().startsWith(root)) {
                throw new SandboxEscapeException(path, "a symbolic link leads outside the sandbox");
            }
        } catch (IOException e) {
            throw new SandboxEscapeException(path, "a symbolic link on the path cannot be followed: " + e.getMessage());
        }
        return candidate;
    }

    /** The path as callers write it: relative to the root, with {@code /} separators. */
    public String relative(Path path) {
        String relative = root.relativize(path).toString().replace('\\', '/');
        return relative.isEmpty() ? "." : relative;
    }

    /** Removes the root and everything in it if this sandbox was created as temporary. */
    public void deleteIfTemporary() {
        if (!temporary) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the sandbox " + root, e);
        }
    }
}
