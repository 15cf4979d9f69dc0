package dev.mcppolicy.demo.conformance;

import io.modelcontextprotocol.spec.McpSchema.EmbeddedResource;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** The contents the fixtures return; the image and sound are the smallest valid ones, base64 as MCP carries them. */
final class SampleContent {
    static final String PNG_MIME = "image/png";
    static final String WAV_MIME = "audio/wav";

    /** One grey-blue pixel, 8-bit RGB. */
    static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mMwTpsJAAICATNoejH4AAAAAElFTkSuQmCC";

    /** One millisecond of silence: 8 kHz, mono, 16-bit PCM. */
    static final String WAV = Base64.getEncoder().encodeToString(silentWav(8_000, 8));

    private SampleContent() {
    }

    static TextContent text(String text) {
        return TextContent.builder(text).build();
    }

    static ImageContent image() {
        return ImageContent.builder(PNG, PNG_MIME).build();
    }

    static EmbeddedResource embeddedText(String uri, String mimeType, String text) {
        return EmbeddedResource.builder(TextResourceContents.builder(uri, text).mimeType(mimeType).build()).build();
    }

    private static byte[] silentWav(int sampleRate, int samples) {
        int bytesPerSample = 2;
        int dataSize = samples * bytesPerSample;
        ByteBuffer header = ByteBuffer.allocate(44).order(ByteOrder.LITTLE_ENDIAN);
        header.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(36 + dataSize)
                .put("WAVE".getBytes(StandardCharsets.US_ASCII))
                .put("fmt ".getBytes(StandardCharsets.US_ASCII)).putInt(16)
                .putShort((short) 1)                          // PCM
                .putShort((short) 1)                          // mono
                .putInt(sampleRate)
                .putInt(sampleRate * bytesPerSample)          // byte rate
                .putShort((short) bytesPerSample)             // block align
                .putShort((short) (8 * bytesPerSample))       // bits per sample
                .put("data".getBytes(StandardCharsets.US_ASCII)).putInt(dataSize);
        ByteArrayOutputStream wav = new ByteArrayOutputStream(44 + dataSize);
        wav.writeBytes(header.array());
        wav.writeBytes(new byte[dataSize]);
        return wav.toByteArray();
    }
}
