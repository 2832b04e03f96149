package io.fabemu.app;

import com.typesafe.config.ConfigFactory;
import io.fabemu.cluster.EmbeddedCluster;
import io.fabemu.cluster.JoinMethod;
import io.fabemu.cluster.KubernetesDiscovery;
import io.fabemu.cluster.Transport;
import java.util.function.Supplier;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * How a member ({@code fabemu member}) or a coordinator ({@link RunOptions}) finds the cluster, as a picocli mixin:
 * {@code --discovery seed-nodes} (the addresses of {@code --seed-nodes}, each command's own option) or
 * {@code --discovery kubernetes-api} with the options of {@link KubernetesDiscovery}. Options not given take the
 * settings of {@code fabemu.discovery} ({@code fabemu-cluster.conf}, {@code -D}, {@code application.conf}).
 *
 * <p>Contract: {@link #kubernetes} allows exactly one way to join and reports any other combination as a
 * {@link BadInputException} of one line naming the options.
 */
public final class DiscoveryOptions {

  @Option(names = "--discovery", paramLabel = "METHOD", converter = JoinMethodConverter.class,
      description = "How to find the cluster: seed-nodes (the default with --seed-nodes) or kubernetes-api (Pekko "
          + "Management's cluster bootstrap over the pods the Kubernetes API lists; setting fabemu.discovery.method).")
  JoinMethod method;

  @Option(names = "--management-port", paramLabel = "P",
      description = "With kubernetes-api: port of the management endpoint (health checks /ready and /alive, "
          + "bootstrap's contact point) on --host, the pods' container port named 'management' (default 8558).")
  Integer managementPort;

  @Option(names = "--required-contact-points", paramLabel = "N",
      description = "With kubernetes-api: pods that must answer before the first one forms a new cluster "
          + "(default 2).")
  Integer requiredContactPoints;

  @Option(names = "--pod-label-selector", paramLabel = "SELECTOR",
      description = "With kubernetes-api: the Kubernetes label selector of this cluster's pods (default "
          + "app.kubernetes.io/name=fabemu).")
  String podLabelSelector;

  /**
   * The Kubernetes discovery this command joins through, or null when it joins through seed nodes (or, for a
   * coordinator without them, starts its own members).
   *
   * @param seedNodesGiven      whether the command has {@code --seed-nodes}
   * @param seedNodesRequired   whether a command that does not join through the Kubernetes API needs them (a
   *                            member) rather than starting its own members (a coordinator)
   * @param remotingPort        the member's {@code --port}, which the management port must not share over tcp
   * @param transport           the member's transport
   * @throws BadInputException  for no way or two ways to join, Kubernetes options without kubernetes-api, a bad
   *                            value, or a bad {@code fabemu.discovery} setting
   */
  public KubernetesDiscovery kubernetes(boolean seedNodesGiven, boolean seedNodesRequired, int remotingPort,
                                 Transport transport) {
    JoinMethod chosen = method;
    if (seedNodesGiven) {
      if (chosen == JoinMethod.KUBERNETES_API) {
        throw new BadInputException("--seed-nodes and --discovery kubernetes-api are two ways to join: give one");
      }
      // Explicit seed nodes win over a fabemu.discovery.method setting.
      chosen = JoinMethod.SEED_NODES;
    } else if (chosen == JoinMethod.SEED_NODES) {
      throw new BadInputException("--discovery seed-nodes needs --seed-nodes HOST:PORT[,...]");
    }
    if (chosen == null) {
      chosen = configured(() -> KubernetesDiscovery.methodOf(EmbeddedCluster.settings(ConfigFactory.empty())));
    }
    if (chosen != JoinMethod.KUBERNETES_API) {
      if (managementPort != null || requiredContactPoints != null || podLabelSelector != null) {
        String first = managementPort != null ? "--management-port" : requiredContactPoints != null
            ? "--required-contact-points" : "--pod-label-selector";
        throw new BadInputException(first + " goes with --discovery kubernetes-api");
      }
      if (!seedNodesGiven && seedNodesRequired) {
        throw new BadInputException("give --seed-nodes HOST:PORT[,...] or --discovery kubernetes-api: how this "
            + "member finds the cluster");
      }
      return null;
    }
    KubernetesDiscovery settings = configured(() -> KubernetesDiscovery.fromConfig(
        EmbeddedCluster.settings(ConfigFactory.empty())));
    int port = managementPort == null ? settings.managementPort() : managementPort;
    if (port < 1 || port > 65535) {
      throw new BadInputException("--management-port " + port + " is out of range (1 to 65535)");
    }
    // Aeron talks UDP: its port number may be the management endpoint's (TCP).
    if (port == remotingPort && transport != Transport.AERON_UDP) {
      throw new BadInputException("--management-port " + port + " is the member's --port too: give them different "
          + "ports");
    }
    int required = requiredContactPoints == null ? settings.requiredContactPoints() : requiredContactPoints;
    if (required < 1) {
      throw new BadInputException("--required-contact-points must be at least 1, not " + required);
    }
    String selector = podLabelSelector == null ? settings.podLabelSelector() : podLabelSelector.strip();
    if (selector.isEmpty()) throw new BadInputException("--pod-label-selector must not be empty");
    return new KubernetesDiscovery(port, required, selector);
  }

  /** {@code reader}'s value; a bad setting is bad input, named by the setting. */
  private static <T> T configured(Supplier<T> reader) {
    try {
      return reader.get();
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage());
    }
  }

  /** Picocli converter: a discovery method's name, or a one-line error listing the valid ones. */
  static final class JoinMethodConverter implements ITypeConverter<JoinMethod> {
    @Override
    public JoinMethod convert(String value) {
      try {
        return JoinMethod.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
