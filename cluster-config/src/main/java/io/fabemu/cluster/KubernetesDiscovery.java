package io.fabemu.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Map;

/**
 * Joining through the Kubernetes API: Pekko Management's HTTP endpoint on {@link #managementPort} (the contact
 * point other members probe, and the health checks), and its cluster bootstrap, which lists the pods labelled
 * {@link #podLabelSelector} in this pod's namespace (Pekko's kubernetes-api discovery), probes each on its container
 * port named {@value #PORT_NAME}, and joins the cluster they report; when none exists yet and at least
 * {@link #requiredContactPoints} pods answer, the pod with the lowest address forms it.
 *
 * <p>Settings: the block {@code fabemu.discovery.kubernetes-api} ({@link #fromConfig}); the API server, its CA and
 * token, and the namespace are Pekko's own {@code pekko.discovery.kubernetes-api} settings (in a pod: the service
 * account's files and the {@code KUBERNETES_SERVICE_HOST}/{@code _PORT} variables Kubernetes sets).
 * {@link #pekkoSettings} maps these settings onto Pekko's for a member bound to {@code host}: the management
 * endpoint binds that address only, never a wildcard.
 *
 * @param managementPort        the management endpoint's port, the same on every pod (1 to 65535)
 * @param requiredContactPoints pods that must answer before the first one forms a new cluster (at least 1)
 * @param podLabelSelector      the Kubernetes label selector of the pods of this cluster (not blank)
 */
public record KubernetesDiscovery(int managementPort, int requiredContactPoints, String podLabelSelector) {
  /** The name of the pods' container port of the management endpoint: the contact points. */
  public static final String PORT_NAME = "management";
  /** The block of these settings. */
  public static final String PATH = "fabemu.discovery.kubernetes-api";

  private static final String PEKKO_DISCOVERY = "pekko.discovery.kubernetes-api";

  /** Checks the values; the message names the setting's meaning, for callers that name their own source. */
  public KubernetesDiscovery {
    if (managementPort < 1 || managementPort > 65535) {
      throw new IllegalArgumentException("management port " + managementPort + " is out of range (1 to 65535)");
    }
    if (requiredContactPoints < 1) {
      throw new IllegalArgumentException("required contact points must be at least 1, not " + requiredContactPoints);
    }
    if (podLabelSelector == null || podLabelSelector.isBlank()) {
      throw new IllegalArgumentException("the pod label selector must not be empty");
    }
  }

  /**
   * The settings of the block {@value #PATH} of {@code settings} ({@link EmbeddedCluster#settings}).
   *
   * @throws IllegalArgumentException naming the setting that is missing or wrong
   */
  public static KubernetesDiscovery fromConfig(Config settings) {
    int port = intSetting(settings, "management-port");
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(PATH + ".management-port = " + port + " is out of range (1 to 65535)");
    }
    int required = intSetting(settings, "required-contact-points");
    if (required < 1) {
      throw new IllegalArgumentException(PATH + ".required-contact-points = " + required + " must be at least 1");
    }
    String selector;
    try {
      selector = settings.getString(PATH + ".pod-label-selector");
    } catch (ConfigException e) {
      throw new IllegalArgumentException(PATH + ".pod-label-selector: " + e.getMessage(), e);
    }
    if (selector.isBlank()) throw new IllegalArgumentException(PATH + ".pod-label-selector must not be empty");
    return new KubernetesDiscovery(port, required, selector);
  }

  /**
   * The method {@code fabemu.discovery.method} of {@code settings} names.
   *
   * @throws IllegalArgumentException naming the setting when it names no method
   */
  public static JoinMethod methodOf(Config settings) {
    try {
      return JoinMethod.parse(settings.getString("fabemu.discovery.method"));
    } catch (IllegalArgumentException | ConfigException e) {
      throw new IllegalArgumentException("fabemu.discovery.method: " + e.getMessage(), e);
    }
  }

  private static int intSetting(Config settings, String key) {
    try {
      return settings.getInt(PATH + "." + key);
    } catch (ConfigException e) {
      throw new IllegalArgumentException(PATH + "." + key + ": " + e.getMessage(), e);
    }
  }

  /**
   * Pekko's settings for a member bound to {@code host}: the management endpoint's address (bound and announced:
   * the pod's address, so the contact point other pods probe is this one) and the discovery's selector and
   * required contact points. The rest is fixed in {@code fabemu-cluster.conf}.
   */
  public Config pekkoSettings(String host) {
    return ConfigFactory.parseMap(Map.of(
        "pekko.management.http.hostname", host,
        "pekko.management.http.bind-hostname", host,
        "pekko.management.http.port", managementPort,
        "pekko.management.http.bind-port", managementPort,
        "pekko.management.cluster.bootstrap.contact-point-discovery.required-contact-point-nr", requiredContactPoints,
        PEKKO_DISCOVERY + ".pod-label-selector", podLabelSelector));
  }

  /**
   * Why a member with {@code settings} cannot reach the Kubernetes API from an environment {@code env}, or null
   * when it can as far as can be seen before asking: the variables with the API server's host and port, the token
   * file, and the CA file, which must hold a certificate. Pekko's discovery would only log these at each attempt
   * (or fail inside bootstrap), and the member would wait for its join timeout.
   */
  static String environmentProblem(Config settings, Map<String, String> env) {
    String hostVariable = settings.getString(PEKKO_DISCOVERY + ".api-service-host-env-name");
    String portVariable = settings.getString(PEKKO_DISCOVERY + ".api-service-port-env-name");
    for (String variable : new String[] {hostVariable, portVariable}) {
      String value = env.get(variable);
      if (value == null || value.isBlank()) {
        return "the environment variable " + variable + " (the Kubernetes API server's "
            + (variable.equals(hostVariable) ? "host" : "port") + ") is not set: not in a Kubernetes pod? ("
            + PEKKO_DISCOVERY + ".api-service-" + (variable.equals(hostVariable) ? "host" : "port") + "-env-name)";
      }
    }
    try {
      Integer.parseInt(env.get(portVariable).strip());
    } catch (NumberFormatException e) {
      return "the environment variable " + portVariable + " = '" + env.get(portVariable) + "' is not a port number";
    }
    for (String key : new String[] {"api-ca-path", "api-token-path"}) {
      Path file = Path.of(settings.getString(PEKKO_DISCOVERY + "." + key));
      if (!Files.isReadable(file)) {
        return "cannot read " + file + " (" + PEKKO_DISCOVERY + "." + key + "): no service account in this pod?";
      }
    }
    Path ca = Path.of(settings.getString(PEKKO_DISCOVERY + ".api-ca-path"));
    try (InputStream in = Files.newInputStream(ca)) {
      if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
        return ca + " (" + PEKKO_DISCOVERY + ".api-ca-path) holds no certificate";
      }
    } catch (IOException | CertificateException e) {
      return ca + " (" + PEKKO_DISCOVERY + ".api-ca-path) holds no certificate: " + e.getMessage();
    }
    return null;
  }
}
