package io.fabemu.cluster;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How members talk: the setting {@code fabemu.transport}, mapped onto {@code pekko.remote.artery.transport}.
 * {@link #AERON_UDP} is Aeron over UDP with a media driver embedded in each member (lowest latency on many-core
 * machines; needs /dev/shm); {@link #TCP} works where UDP is blocked and has the shortest round trips on small
 * machines; {@link #TLS_TCP} is tcp with TLS (key and trust stores under {@code pekko.remote.artery.ssl}).
 */
public enum Transport {
  AERON_UDP("aeron-udp"),
  TCP("tcp"),
  TLS_TCP("tls-tcp");

  private final String configName;

  Transport(String configName) {
    this.configName = configName;
  }

  /** The name in settings and on the command line, also Artery's name for it. */
  public String configName() {
    return configName;
  }

  /** The transport named {@code name} (case-sensitive); the error lists the valid names. */
  public static Transport parse(String name) {
    for (Transport t : values()) {
      if (t.configName.equals(name)) return t;
    }
    throw new IllegalArgumentException("unknown transport '" + name + "' (expected one of: " + names() + ")");
  }

  /** The valid names, comma-separated. */
  public static String names() {
    return Arrays.stream(values()).map(Transport::configName).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return configName.toLowerCase(Locale.ROOT);
  }
}
