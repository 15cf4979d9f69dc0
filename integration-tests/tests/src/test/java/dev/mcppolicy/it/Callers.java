package dev.mcppolicy.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** Callers with a credential of their own: fixture clients without the agent that send {@code Authorization} over HTTP. */
final class Callers {
    private Callers() {
    }

    /**
     * A fixture client of {@code classPath} connected to {@code url}, ready for commands, added to {@code started}
     * (the caller closes it); every HTTP request it makes carries {@code Authorization: <authorization>}.
     */
    static ForkedJvm start(List<ForkedJvm> started, Path dir, String name, String authorization, String classPath,
            String transport, String url) throws IOException {
        return start(started, dir, name, authorization, classPath, "fixture.FixtureClient", transport, url);
    }

    /** The same with the client program {@code main} ({@code fixture.ModernClient}, say). */
    static ForkedJvm start(List<ForkedJvm> started, Path dir, String name, String authorization, String classPath,
            String main, String transport, String url) throws IOException {
        Files.createDirectories(dir);
        ForkedJvm client = ForkedJvm.start(name, dir, List.of("-Dfixture.authorization=" + authorization), classPath,
                main, List.of(transport, url));
        started.add(client);
        client.awaitStdout(0, line -> line.equals(">> READY"));
        return client;
    }

    /** Calls {@code tool} with no arguments; the client's answer line without the {@code >> }. */
    static String call(ForkedJvm client, String tool) throws IOException {
        return call(client, tool, "{}");
    }

    /** Calls {@code tool} with {@code json} as its arguments; the client's answer line without the {@code >> }. */
    static String call(ForkedJvm client, String tool, String json) throws IOException {
        return command(client, "call " + tool + " " + json);
    }

    /** Any command line of a fixture client ({@code list}, {@code burst ...}); its answer line without the {@code >> }. */
    static String command(ForkedJvm client, String line) throws IOException {
        int from = client.stdout().size();
        client.send(line);
        return client.awaitStdout(from, answer -> answer.startsWith(">> ") && !answer.equals(">> READY")).substring(3);
    }

    /** {@code client=principal:<16 hex>}: how a decision line names the caller of {@code credential}. */
    static String principalField(String credential) throws NoSuchAlgorithmException {
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(credential.getBytes(StandardCharsets.UTF_8));
        return "client=principal:" + HexFormat.of().formatHex(hash).substring(0, 16);
    }
}
