package io.fabemu.app;

import io.fabemu.cluster.MemberSettings;
import io.fabemu.cluster.Transport;
import java.util.List;
import org.apache.pekko.actor.Address;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The options {@code fabemu member} shares with the commands that run a scenario ({@link RunOptions}): where this
 * member binds and how members talk. All members of one cluster must use the same transport.
 */
public final class ClusterOptions {
  /** The transport when none is given: tcp has the shortest round trips on small machines (docs/dependencies.md). */
  static final Transport DEFAULT_TRANSPORT = Transport.TCP;

  @Option(names = "--host", paramLabel = "H", defaultValue = "127.0.0.1",
      description = "Address this member binds and announces (only this one; default ${DEFAULT-VALUE}). "
          + "On several machines: this machine's address on the network the members share.")
  public String host;

  @Option(names = "--transport", paramLabel = "T", converter = TransportConverter.class,
      description = "aeron-udp, tcp (default) or tls-tcp; the same on every member.")
  Transport transport;

  public Transport transport() {
    return transport == null ? DEFAULT_TRANSPORT : transport;
  }

  /** Picocli converter: a transport name, or a one-line error listing the valid ones. */
  static final class TransportConverter implements ITypeConverter<Transport> {
    @Override
    public Transport convert(String value) {
      try {
        return Transport.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** Picocli converter: {@code HOST:PORT[,HOST:PORT...]}. */
  public static final class SeedNodesConverter implements ITypeConverter<List<Address>> {
    @Override
    public List<Address> convert(String value) {
      try {
        return MemberSettings.parseSeedNodes(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
