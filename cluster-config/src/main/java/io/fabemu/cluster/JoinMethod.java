package io.fabemu.cluster;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How a member finds the cluster it joins: the setting {@code fabemu.discovery.method} and the option
 * {@code --discovery}. {@link #SEED_NODES} joins through listed member addresses (bare machines, fixed addresses);
 * {@link #KUBERNETES_API} through Pekko Management's cluster bootstrap, which finds the other members as the pods
 * the Kubernetes API lists ({@link KubernetesDiscovery}).
 */
public enum JoinMethod {
  SEED_NODES("seed-nodes"),
  KUBERNETES_API("kubernetes-api");

  private final String configName;

  JoinMethod(String configName) {
    this.configName = configName;
  }

  /** The name in settings and on the command line. */
  public String configName() {
    return configName;
  }

  /** The method named {@code name} (case-sensitive); the error lists the valid names. */
  public static JoinMethod parse(String name) {
    for (JoinMethod m : values()) {
      if (m.configName.equals(name)) return m;
    }
    throw new IllegalArgumentException("unknown discovery method '" + name + "' (expected one of: " + names() + ")");
  }

  /** The valid names, comma-separated. */
  public static String names() {
    return Arrays.stream(values()).map(JoinMethod::configName).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return configName;
  }
}
