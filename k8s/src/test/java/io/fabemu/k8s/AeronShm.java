package io.fabemu.k8s;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.aeron.logbuffer.LogBufferDescriptor;
import java.util.Locale;
import java.util.Map;

/**
 * How much of {@code /dev/shm} a member's embedded Aeron media driver fills (transport {@code aeron-udp}), from the
 * settings fabemu actually starts with: {@code fabemu-cluster.conf} (cluster-config) under the JVM's {@code -D}
 * options, over Pekko's reference settings, as {@code EmbeddedCluster} merges them.
 *
 * <p>The formula, per member with {@code peers} other members (every member of a run talks to every other one: each
 * sends the others its report and events at the end of every global window):
 * <pre>
 *   driver files + peers x streams x 2 x log length
 * </pre>
 * <ul>
 *   <li>streams: Artery's control and ordinary streams, plus its large-message stream only when
 *       {@code pekko.remote.artery.large-message-destinations} is not empty (fabemu leaves it empty);
 *   <li>2: towards each peer one publication (what this member sends) and from each peer one image (what it
 *       receives), each a log buffer of its own;
 *   <li>log length: Aeron's {@link LogBufferDescriptor#computeLogLength}: 3 terms of the term length
 *       ({@code -Daeron.term.buffer.length} when given, else {@code fabemu.aeron.term-buffer-length}: 16 MiB) plus
 *       the log's metadata, rounded up to the file page (4 KiB);
 *   <li>driver files: {@code cnc.dat} (command and broadcast buffers, counters, error log) and
 *       {@code loss-report.dat} at Aeron 1.45.1's defaults: 9 MiB.
 * </ul>
 * Measured on 2026-11-24 (du of each member's {@code /dev/shm/fabemu-aeron-*} during {@code bin/fabemu run
 * examples/quickstart.conf --members 4 --transport aeron-udp}): 585 MiB per member with 3 peers, 201 MiB while a
 * member had 1 peer; the formula gives 585.05 and 201.02 MiB.
 */
public final class AeronShm {
  /** {@code cnc.dat} + {@code loss-report.dat} of an embedded driver at Aeron's defaults (measured: 9 MiB). */
  public static final long DRIVER_FILES_BYTES = 9L << 20;
  /** Aeron's default file page size ({@code aeron.file.page.size}). */
  static final int FILE_PAGE_SIZE_BYTES = 4096;

  private AeronShm() {}

  /**
   * The settings a member starts with when its JVM gets the system properties {@code jvmProperties} (the
   * {@code -Dkey=value} options of {@code FABEMU_JAVA_OPTS}): those over {@code fabemu-cluster.conf} over the
   * libraries' reference settings.
   */
  public static Config memberConfig(Map<String, String> jvmProperties) {
    return ConfigFactory.parseMap(jvmProperties, "FABEMU_JAVA_OPTS")
        .withFallback(ConfigFactory.parseResources("fabemu-cluster.conf"))
        .withFallback(ConfigFactory.defaultReference())
        .resolve();
  }

  /** Aeron's term length in {@code config}: an explicit {@code aeron.term.buffer.length} wins, as in fabemu. */
  public static long termLengthBytes(Config config) {
    return config.hasPath("aeron.term.buffer.length") ? config.getBytes("aeron.term.buffer.length")
        : config.getBytes("fabemu.aeron.term-buffer-length");
  }

  /** Artery's streams over Aeron: control and ordinary, and large messages when any destination is named. */
  public static int streams(Config config) {
    boolean large = !config.getStringList("pekko.remote.artery.large-message-destinations").isEmpty();
    return large ? 3 : 2;
  }

  /** One log buffer (a publication or an image) of {@code config}'s term length, as Aeron lays it out. */
  public static long logLengthBytes(Config config) {
    long term = termLengthBytes(config);
    if (term > Integer.MAX_VALUE) throw new IllegalArgumentException("Aeron term length " + term + " B is too long");
    return LogBufferDescriptor.computeLogLength((int) term, FILE_PAGE_SIZE_BYTES);
  }

  /** The bytes of {@code /dev/shm} one member's media driver fills with {@code peers} other members. */
  public static long requiredBytes(Config config, int peers) {
    if (peers < 0) throw new IllegalArgumentException("peers must be at least 0, not " + peers);
    return DRIVER_FILES_BYTES + (long) peers * streams(config) * 2 * logLengthBytes(config);
  }

  /** The formula with {@code config}'s values, for messages: e.g. {@code 3 peers x 2 streams x 2 x 48.0 MiB ...}. */
  public static String explain(Config config, int peers) {
    return peers + " peers x " + streams(config) + " streams x 2 directions x (3 x " + mib(termLengthBytes(config))
        + " term + metadata = " + mib(logLengthBytes(config)) + ") + " + mib(DRIVER_FILES_BYTES) + " driver files";
  }

  /** {@code bytes} in MiB with two decimals. */
  public static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.2f MiB", bytes / 1048576.0);
  }
}
