package dev.mcppolicy.agent.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documentation's relative links and anchors lead somewhere (issue 33): every {@code [x](path)},
 * {@code [x](path#anchor)}, {@code [x](#anchor)} and image in the project's Markdown names a file that exists, and
 * every anchor a heading of its target under GitHub's slug rule. Links to the web are not followed (no network in
 * the build), and nothing inside a fenced code block or a code span is a link.
 */
class DocsLinksTest {
    /** The repository's root, seen from the agent module's directory, where Maven runs its tests. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> NAMED = List.of("README.md", "CONTRIBUTING.md", "CHANGELOG.md",
            "demo-app/README.md", "agent/BENCHMARKS.md");
    private static final List<String> TREES = List.of("docs", "examples");
    private static final int README_MAX_LINES = 260;

    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)((?:(?!\\n\\s*\\n)[^`]|(?!\\1)`+)+?)\\1");
    private static final Pattern LINK = Pattern.compile("!?\\[((?:[^\\[\\]]|\\[[^\\[\\]]*\\])*)\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE = Pattern.compile("^ {0,3}\\[[^\\]\\n]+\\]:[ \\t]*<?([^\\s>]+)>?", Pattern.MULTILINE);
    private static final Pattern HTML_LINK = Pattern.compile("<(?:a|img)\\b[^>]*\\b(?:href|src)=\"([^\"]*)\"", Pattern.CASE_INSENSITIVE);
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\b[^>]*\\b(?:name|id)=\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);
    private static final Pattern WEB = Pattern.compile("^(?i)(https?:|mailto:)");

    private final Map<Path, Set<String>> anchors = new HashMap<>();

    @Test
    void everyRelativeLinkAndAnchorLeadsSomewhere() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path file : markdownFiles(broken)) {
            String text = prose(Files.readAllLines(file));
            for (Matcher link : List.of(LINK.matcher(text), HTML_LINK.matcher(text), REFERENCE.matcher(text))) {
                while (link.find()) {
                    String target = link.group(link.groupCount());
                    String problem = problem(file, target);
                    if (problem != null) {
                        int line = (int) text.substring(0, link.start()).chars().filter(c -> c == '\n').count() + 1;
                        broken.add(ROOT.relativize(file) + ":" + line + ": (" + target + ") " + problem);
                    }
                }
            }
        }
        assertThat(broken).as("relative links and anchors in the project's Markdown that lead nowhere").isEmpty();
    }

    @Test
    void readmeIsAFrontDoor() throws IOException {
        assertThat(Files.readAllLines(ROOT.resolve("README.md")))
                .as("README.md: at most %d lines, the rest is in docs/", README_MAX_LINES)
                .hasSizeLessThanOrEqualTo(README_MAX_LINES);
    }

    @Test
    void slugsAreGitHubs() {
        assertThat(slugs(List.of("## Metrics: JMX and Micrometer", "### Value types: the op × type table",
                "## Serialized stdio sends (`serialize_stdio`, SDKs before 2.1.0)", "## [Linked](x.md) title", "## A",
                "## A", "## A", "```", "## not a heading", "```"))).containsExactlyInAnyOrder("metrics-jmx-and-micrometer",
                        "value-types-the-op--type-table", "serialized-stdio-sends-serialize_stdio-sdks-before-210",
                        "linked-title", "a", "a-1", "a-2");
    }

    /** README, CONTRIBUTING, CHANGELOG, the demo's README, the agent's benchmarks, and all of docs/ and examples/. */
    private static List<Path> markdownFiles(List<String> broken) throws IOException {
        Set<Path> files = new TreeSet<>();
        for (String name : NAMED) {
            Path file = ROOT.resolve(name);
            if (Files.isRegularFile(file)) {
                files.add(file);
            } else {
                broken.add(name + ": missing");
            }
        }
        for (String tree : TREES) {
            try (Stream<Path> walk = Files.walk(ROOT.resolve(tree))) {
                walk.filter(path -> path.toString().endsWith(".md"))
                        .filter(path -> !ROOT.relativize(path).toString().matches("(.*/)?(target|node_modules)/.*"))
                        .forEach(files::add);
            }
        }
        return new ArrayList<>(files);
    }

    /**
     * The file's text with fenced code blocks and code spans blanked out, line breaks kept, so that a link wrapped
     * over two lines is still one link and an offset still gives its line.
     */
    private static String prose(List<String> lines) {
        StringBuilder text = new StringBuilder();
        boolean fenced = false;
        for (String line : lines) {
            boolean fence = FENCE.matcher(line).find();
            fenced ^= fence;
            text.append(fence || fenced ? "" : line).append('\n');
        }
        Matcher code = CODE_SPAN.matcher(text);
        StringBuilder prose = new StringBuilder();
        while (code.find()) {
            code.appendReplacement(prose, code.group().replaceAll("[^\n]", " "));
        }
        return code.appendTail(prose).toString();
    }

    /** Why a target leads nowhere, or null when it leads somewhere (or off to the web). */
    private String problem(Path from, String target) {
        if (target.isEmpty()) {
            return "an empty link";
        }
        if (WEB.matcher(target).find()) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? null : URLDecoder.decode(target.substring(hash + 1), StandardCharsets.UTF_8);
        Path file = path.isEmpty() ? from : from.getParent().resolve(path).normalize();
        if (!file.startsWith(ROOT)) {
            return "points outside the repository";
        }
        if (!Files.exists(file)) {
            return "no such file: " + ROOT.relativize(file);
        }
        if (anchor == null) {
            return null;
        }
        if (!file.toString().endsWith(".md") || Files.isDirectory(file)) {
            return "an anchor into a file that is not Markdown";
        }
        return anchorsOf(file).contains(anchor) ? null : "no heading '" + anchor + "' in " + ROOT.relativize(file);
    }

    private Set<String> anchorsOf(Path file) {
        return anchors.computeIfAbsent(file, f -> {
            try {
                return slugs(Files.readAllLines(f));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** The anchors GitHub gives a file's headings (outside fences), and its explicit HTML anchors. */
    static Set<String> slugs(List<String> lines) {
        Set<String> slugs = new HashSet<>();
        Map<String, Integer> counts = new HashMap<>();
        boolean fenced = false;
        for (String line : lines) {
            if (FENCE.matcher(line).find()) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher explicit = HTML_ANCHOR.matcher(line);
            while (explicit.find()) {
                slugs.add(explicit.group(1));
            }
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(2));
                int seen = counts.merge(slug, 1, Integer::sum) - 1;
                slugs.add(seen == 0 ? slug : slug + "-" + seen);
            }
        }
        return slugs;
    }

    /** GitHub's rule: the heading's text lower-cased, punctuation but '-' and '_' dropped, each space a '-'. */
    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
        StringBuilder slug = new StringBuilder();
        text.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }
}
