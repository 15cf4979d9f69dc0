package dev.mcppolicy.policy;

import dev.mcppolicy.json.CanonicalJson;
import dev.mcppolicy.policy.internal.Node;
import dev.mcppolicy.policy.internal.PolicyBinder;
import dev.mcppolicy.policy.internal.TreeReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Reads policy files (JSON or YAML, SPEC §3) into a validated {@link Policy}. Every error in a file is
 * reported at once, each with its JSON Pointer, line and column.
 */
public final class PolicyParser {
    /** The two syntaxes of a policy file; both give the same model. */
    public enum Format { JSON, YAML }

    private PolicyParser() {
    }

    /** Parses a file; the format follows the extension ({@code .yaml}/{@code .yml} are YAML) or is sniffed. */
    public static Policy parse(Path file) throws PolicyException {
        String name = file.toString();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new PolicyException(name, List.of(new PolicyError("", 0, 0, "file not found")));
        } catch (IOException e) {
            throw new PolicyException(name, List.of(new PolicyError("", 0, 0, "cannot read the file: " + e)));
        }
        return parse(bytes, formatOf(name), name);
    }

    /** Parses text; {@code format} may be {@code null} to sniff it from the content. */
    public static Policy parse(String text, Format format, String sourceName) throws PolicyException {
        return parse(text.getBytes(StandardCharsets.UTF_8), format, sourceName);
    }

    /** Parses the bytes of a policy file (UTF-8); {@code format} may be {@code null} to sniff it from the content. */
    public static Policy parse(byte[] bytes, Format format, String sourceName) throws PolicyException {
        String text = new String(bytes, StandardCharsets.UTF_8);
        List<PolicyError> errors = new ArrayList<>();
        TreeReader reader = new TreeReader(errors);
        TreeReader.Format syntax = format == null ? TreeReader.sniff(text)
                : format == Format.JSON ? TreeReader.Format.JSON : TreeReader.Format.YAML;
        Node root = reader.read(text, syntax);
        Policy policy = root == null ? null : new PolicyBinder(errors).bind(root, CanonicalJson.sha256Hex(bytes));
        if (!errors.isEmpty() || policy == null) {
            errors.sort(Comparator.comparingInt(PolicyError::line).thenComparingInt(PolicyError::column));
            throw new PolicyException(sourceName, errors);
        }
        return policy;
    }

    /** The format a file name implies, or {@code null} when it implies none. */
    public static Format formatOf(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".yaml") || lower.endsWith(".yml")) {
            return Format.YAML;
        }
        if (lower.endsWith(".json")) {
            return Format.JSON;
        }
        return null;
    }
}
