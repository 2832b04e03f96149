package io.fabemu.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.Address;

/**
 * Settings of a member of a multi-member (multi-process) cluster: the address it binds (and announces), the
 * transport, and how the cluster removes a member that vanished without leaving.
 *
 * <p>Contract: pure functions, no I/O. A member binds only {@code host} (canonical and bind hostname are the same),
 * never a wildcard address. Members of one cluster use the split-brain resolver's {@code keep-oldest} strategy (the
 * oldest member, normally the coordinator's, keeps running; an unreachable member is downed once the cluster has
 * been stable for {@code stable-after}), so a member killed with SIGKILL is removed and the coordinator's death
 * watch fires instead of the run waiting forever.
 */
public final class MemberSettings {
  /** Pekko's default Artery port, the default of {@code fabemu member}. */
  public static final int DEFAULT_PORT = 25520;

  private MemberSettings() {}

  /** The overrides for a member on {@code host:port} (port 0: any free port) over {@code transport}. */
  public static Config member(String host, int port, Transport transport) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is out of range (0 to 65535; 0 picks a free port)");
    }
    return ConfigFactory.parseMap(Map.of(
            "fabemu.transport", transport.configName(),
            "pekko.remote.artery.canonical.hostname", host,
            "pekko.remote.artery.canonical.port", port,
            "pekko.cluster.downing-provider-class", "org.apache.pekko.cluster.sbr.SplitBrainResolverProvider"))
        .withFallback(ConfigFactory.parseString("""
            pekko.cluster.split-brain-resolver {
              active-strategy = keep-oldest
              keep-oldest.down-if-alone = off
              stable-after = 4s
            }
            """));
  }

  /**
   * Parses {@code HOST:PORT[,HOST:PORT...]} into member addresses of fabemu's actor system. An IPv6 host is
   * written in brackets ({@code [::1]:25520}).
   *
   * @throws IllegalArgumentException naming the entry that is not {@code HOST:PORT}
   */
  public static List<Address> parseSeedNodes(String text) {
    List<Address> seeds = new ArrayList<>();
    for (String raw : text.split(",")) {
      String entry = raw.strip();
      int colon = entry.lastIndexOf(':');
      if (entry.isEmpty() || colon <= 0 || colon == entry.length() - 1) {
        throw new IllegalArgumentException("seed node '" + entry + "' is not HOST:PORT");
      }
      String host = entry.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
      int port;
      try {
        port = Integer.parseInt(entry.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("seed node '" + entry + "' has no valid port");
      }
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("seed node '" + entry + "': port out of range (1 to 65535)");
      }
      seeds.add(new Address("pekko", EmbeddedCluster.SYSTEM_NAME, host, port));
    }
    return List.copyOf(seeds);
  }

  /** {@code host:port} of a member address, as {@code --seed-nodes} takes it. */
  public static String hostPort(Address address) {
    String host = address.getHost().orElse("?");
    if (host.contains(":")) host = "[" + host + "]";
    return host + ":" + address.getPort().map(String::valueOf).orElse("?");
  }
}
