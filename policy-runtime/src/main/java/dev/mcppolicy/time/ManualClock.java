package dev.mcppolicy.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told to: the virtual time of {@code test} cases and of unit tests. */
public final class ManualClock extends Clock {
    private final AtomicLong millis;

    public ManualClock(Instant start) {
        this.millis = new AtomicLong(start.toEpochMilli());
    }

    public void advance(Duration duration) {
        millis.addAndGet(duration.toMillis());
    }

    public void set(Instant instant) {
        millis.set(instant.toEpochMilli());
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        if (!ZoneOffset.UTC.equals(zone)) {
            throw new UnsupportedOperationException("a ManualClock is always UTC");
        }
        return this;
    }
}
