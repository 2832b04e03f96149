package io.fabemu.archfixtures.node.rank;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/** One forbidden read per method (each a violation), then allowed seeded sources. */
public final class ClockReader {
  /** How many forbidden calls this class makes; the test expects exactly this many violations from it. */
  public static final int FORBIDDEN_CALLS = 11;

  public long millis() {
    return System.currentTimeMillis();
  }

  public long nanos() {
    return System.nanoTime();
  }

  public Instant instant() {
    return Instant.now();
  }

  public LocalDateTime localDateTime() {
    return LocalDateTime.now();
  }

  public Clock clock() {
    return Clock.systemUTC();
  }

  public Random unseededRandom() {
    return new Random();
  }

  public SplittableRandom unseededSplittableRandom() {
    return new SplittableRandom();
  }

  public SecureRandom secureRandom() {
    return new SecureRandom();
  }

  public double mathRandom() {
    return Math.random();
  }

  public int threadLocalRandom() {
    return ThreadLocalRandom.current().nextInt();
  }

  public UUID randomUuid() {
    return UUID.randomUUID();
  }

  /** Allowed: seeded sources are reproducible. */
  public long seeded(long seed) {
    return new Random(seed).nextLong() ^ new SplittableRandom(seed).nextLong();
  }
}
