package dev.mcppolicy.demo.resources;

import dev.mcppolicy.demo.sandbox.Sandbox;
import dev.mcppolicy.demo.sandbox.SandboxEscapeException;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sandbox's files as MCP resources: each regular file at the sandbox's root is listed as
 * {@code file:///sandbox/<name>} (the name percent-encoded), and the template {@code file:///sandbox/{path}}
 * reads any file of the sandbox. A read goes through the same {@link Sandbox#resolve} checks as the file
 * tools, after decoding the URI's percent-escapes once, so {@code file:///sandbox/..%2Fetc%2Fpasswd} is
 * refused here too, with or without a policy agent in front.
 *
 * <p>The SDK lists the resources registered on the server, so {@link #refresh()} keeps that list in step
 * with the sandbox's root; the server calls it once it is built ({@link #attach}) and after every tool call.
 */
public final class SandboxResources {
    public static final String PREFIX = "file:///sandbox/";
    public static final String TEMPLATE = PREFIX + "{path}";
    /** The largest file a read returns, as for {@code read_file}. */
    public static final long READ_LIMIT = 1024 * 1024;
    private static final String MIME_TYPE = "text/plain";
    private static final Logger LOG = LoggerFactory.getLogger(SandboxResources.class);

    private final Sandbox sandbox;
    /** URI → resource, as registered on the server; guarded by {@code this}. */
    private final Map<String, Resource> registered = new LinkedHashMap<>();
    private McpSyncServer server;

    public SandboxResources(Sandbox sandbox) {
        this.sandbox = sandbox;
    }

    /** The files at the sandbox's root as resources, sorted by name: regular files only, no symbolic links. */
    public List<Resource> list() throws IOException {
        List<Resource> resources = new ArrayList<>();
        try (Stream<Path> entries = Files.list(sandbox.root())) {
            entries.filter(path -> Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS))
                    .map(path -> path.getFileName().toString())
                    .sorted()
                    .forEach(name -> resources.add(Resource.builder(uriOf(name), name)
                            .description("The sandbox file " + name)
                            .mimeType(MIME_TYPE)
                            .build()));
        }
        return resources;
    }

    /** The template that reads any file of the sandbox by its path. */
    public SyncResourceTemplateSpecification template() {
        ResourceTemplate template = ResourceTemplate.builder(TEMPLATE, "Sandbox file")
                .description("A UTF-8 text file of the sandbox (at most 1 MiB), by its path relative to the sandbox "
                        + "directory, percent-encoded")
                .mimeType(MIME_TYPE)
                .build();
        return new SyncResourceTemplateSpecification(template, (exchange, request) -> logged(request.uri()));
    }

    /** Registers the files at the root on {@code server} and keeps them in step from now on. */
    public synchronized void attach(McpSyncServer server) {
        this.server = server;
        refresh();
    }

    /**
     * Brings the server's resource list in step with the files at the sandbox's root: adds the new ones,
     * removes the ones gone. Does nothing before {@link #attach}; never throws (a failure is logged).
     */
    public synchronized void refresh() {
        if (server == null) {
            return;
        }
        try {
            Map<String, Resource> now = new LinkedHashMap<>();
            for (Resource resource : list()) {
                now.put(resource.uri(), resource);
            }
            for (String uri : List.copyOf(registered.keySet())) {
                if (!now.containsKey(uri)) {
                    server.removeResource(uri);
                    registered.remove(uri);
                }
            }
            for (Resource resource : now.values()) {
                if (!registered.containsKey(resource.uri())) {
                    server.addResource(new SyncResourceSpecification(resource,
                            (exchange, request) -> logged(request.uri())));
                    registered.put(resource.uri(), resource);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot list the sandbox's files as resources: {}", e.toString());
        }
    }

    /**
     * Reads the file a {@code file:///sandbox/...} URI names. The handler of every resource and of the
     * template: it reads the URI the caller asked for, whichever registration the SDK matched it to.
     *
     * @throws McpError {@code -32602} for a URI that is not a sandbox file's or leads outside the sandbox,
     *     {@code -32002} for a file that does not exist
     */
    public ReadResourceResult read(String uri) {
        String path = pathOf(uri);
        Path file;
        try {
            file = sandbox.resolve(path);
        } catch (SandboxEscapeException e) {
            throw invalid("resource '" + uri + "' is rejected: " + e.getMessage());
        }
        if (!Files.isRegularFile(file)) {
            throw McpError.RESOURCE_NOT_FOUND.apply(uri);
        }
        try {
            long size = Files.size(file);
            if (size > READ_LIMIT) {
                throw invalid("resource '" + uri + "' is " + size + " bytes; a read returns at most " + READ_LIMIT);
            }
            String text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                    .toString();
            return ReadResourceResult.builder(List.of(
                    TextResourceContents.builder(uri, text).mimeType(MIME_TYPE).build())).build();
        } catch (CharacterCodingException e) {
            throw invalid("resource '" + uri + "' is not UTF-8 text");
        } catch (IOException e) {
            throw McpError.builder(ErrorCodes.INTERNAL_ERROR).message("I/O error: " + e.getMessage()).build();
        }
    }

    /** The URI of a file at the root: {@code file:///sandbox/} and its name, percent-encoded. */
    public static String uriOf(String name) {
        StringBuilder uri = new StringBuilder(PREFIX);
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == '~') {
                uri.append(c);
            } else {
                uri.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
            }
        }
        return uri.toString();
    }

    /**
     * The sandbox path a URI names: what follows {@code file:///sandbox/}, its percent-escapes decoded once
     * as UTF-8. The result is a path for {@link Sandbox#resolve}, which decides whether it stays inside.
     *
     * @throws McpError {@code -32602} for another URI, or a malformed escape
     */
    static String pathOf(String uri) {
        if (uri == null || !uri.startsWith(PREFIX) || uri.length() == PREFIX.length()) {
            throw invalid("resource '" + uri + "' is not a sandbox file: its URI must be " + TEMPLATE);
        }
        String encoded = uri.substring(PREFIX.length());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
        int i = 0;
        while (i < encoded.length()) {
            int escape = encoded.indexOf('%', i);
            if (escape != i) {
                int end = escape < 0 ? encoded.length() : escape;
                bytes.writeBytes(encoded.substring(i, end).getBytes(StandardCharsets.UTF_8));
                i = end;
                continue;
            }
            int high = i + 2 < encoded.length() ? Character.digit(encoded.charAt(i + 1), 16) : -1;
            int low = i + 2 < encoded.length() ? Character.digit(encoded.charAt(i + 2), 16) : -1;
            if (high < 0 || low < 0) {
                throw invalid("resource '" + uri + "' has a malformed percent-escape");
            }
            bytes.write(high << 4 | low);
            i += 3;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw invalid("resource '" + uri + "' escapes bytes that are not UTF-8");
        }
    }

    /** {@link #read}, with one log line per read as the tools write. */
    private ReadResourceResult logged(String uri) {
        long started = System.nanoTime();
        try {
            ReadResourceResult result = read(uri);
            LOG.info("resource {} -> ok ({} ms)", uri, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            return result;
        } catch (McpError e) {
            LOG.info("resource {} -> error ({} ms): {}", uri, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                    e.getMessage());
            throw e;
        }
    }

    private static McpError invalid(String message) {
        return McpError.builder(ErrorCodes.INVALID_PARAMS).message(message).build();
    }
}
