package dev.mcppolicy.agent.log;

import dev.mcppolicy.log.DecisionRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The last {@code capacity} decisions, for the admin page: a ring buffer of each decision's audit record
 * ({@link DecisionRecord#toBoundedJson}, so a hostile call keeps a few KB, not its arguments). Registered
 * only when {@code admin} is set. Writing is one atomic increment and one array store, no lock; a reader
 * sees each record whole, and skips a slot a writer is replacing.
 */
public final class RecentDecisions implements DecisionListener {
    /** How many decisions the admin page can show. */
    public static final int CAPACITY = 500;

    private final AtomicReferenceArray<Entry> slots;
    private final AtomicLong next = new AtomicLong();

    public RecentDecisions(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.slots = new AtomicReferenceArray<>(capacity);
    }

    /** One decision's record and its place in the sequence of all decisions. */
    private record Entry(long sequence, String json) {
    }

    @Override
    public void decided(DecisionRecord record, ClassLoader sdkLoader) {
        add(record.toBoundedJson());
    }

    void add(String json) {
        long sequence = next.getAndIncrement();
        slots.set((int) (sequence % slots.length()), new Entry(sequence, json));
    }

    /** Up to {@code limit} records (JSON objects), newest first; never more than the capacity. */
    public List<String> newest(int limit) {
        long end = next.get();
        long oldest = Math.max(0, end - slots.length());
        List<String> out = new ArrayList<>(Math.max(0, Math.min(limit, slots.length())));
        for (long sequence = end - 1; sequence >= oldest && out.size() < limit; sequence--) {
            Entry entry = slots.get((int) (sequence % slots.length()));
            if (entry != null && entry.sequence() == sequence) {
                out.add(entry.json());
            }
        }
        return out;
    }

    /** How many decisions were recorded since the agent started, kept or not. */
    public long total() {
        return next.get();
    }

    public int capacity() {
        return slots.length();
    }

    @Override
    public String name() {
        return "recent decisions";
    }
}
