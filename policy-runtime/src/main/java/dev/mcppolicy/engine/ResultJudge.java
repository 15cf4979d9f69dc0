package dev.mcppolicy.engine;

import java.util.List;
import java.util.Objects;

/**
 * Judges the answer to one allowed call before the caller sees it (SPEC §13): a tool's result, a
 * resource's contents, a prompt's messages. Get one from {@link PolicyEngine#resultJudge}; thread-safe.
 * Never throws: an answer it cannot judge is denied (fail closed).
 */
public interface ResultJudge {

    /** The JSON Pointer of the rule's {@code result}: {@code /tools/run_command/result}. */
    String pointer();

    Verdict judge(Answer answer);

    /**
     * An answer as the judge reads it.
     *
     * @param texts the text parts in order (text content, text resource contents, prompt messages' text); none {@code null}
     * @param structured a tool's structured content, JSON-like, or {@code null}
     * @param otherBytes bytes the judge cannot read but {@code max_bytes} counts (base64 of images, audio and blobs)
     */
    record Answer(List<String> texts, Object structured, long otherBytes) {
        public Answer {
            texts = List.copyOf(texts);
        }
    }

    /**
     * What becomes of an answer.
     *
     * @param decision {@code null} when the answer passes; else the result rule's denial (an {@code ALLOW} with
     *     {@code wouldBe == DENY} in monitor mode, when the answer goes through unchanged by the denial)
     * @param texts the texts to answer with, one per part of the answer: the same list when nothing was redacted
     * @param structured the structured content to answer with: the same object when nothing in it was redacted
     * @param redacted what was redacted, {@code <detector>:<count>,...} in a fixed order, or {@code null}
     */
    record Verdict(Decision decision, List<String> texts, Object structured, String redacted) {
        public Verdict {
            Objects.requireNonNull(texts, "texts");
        }

        /** Whether the caller gets the §5 denial instead of the answer. */
        public boolean denied() {
            return decision != null && decision.isDenied();
        }

        /** Whether the answer must be rebuilt: something was redacted. */
        public boolean redactedAny() {
            return redacted != null;
        }
    }
}
