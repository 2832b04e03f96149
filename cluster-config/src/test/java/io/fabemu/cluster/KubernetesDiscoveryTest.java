package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The settings of joining through the Kubernetes API ({@code fabemu.discovery}, mapped onto Pekko Management's),
 * the environment a member checks before it starts, and the readiness check of the management endpoint. The
 * bootstrap itself, against a stand-in API server, is app's {@code KubernetesDiscoveryClusterTest}.
 */
class KubernetesDiscoveryTest {
  /** A self-signed certificate (keytool), as a service account's ca.crt holds the cluster's CA. */
  private static final String CA_PEM = """
      -----BEGIN CERTIFICATE-----
      MIIBSDCB76ADAgECAggDJoTDBtfE1DAKBggqhkjOPQQDAjAZMRcwFQYDVQQDEw5m
      YWJlbXUtdGVzdC1jYTAeFw0yNjExMjQxNDQ1MDJaFw0yNjExMjUxNDQ1MDJaMBkx
      FzAVBgNVBAMTDmZhYmVtdS10ZXN0LWNhMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcD
      QgAERFQFfscCilnXt1enz0mpo3Uw4ePNCM5Zc7Tntk2jfNPsZ+stMgKp8Ti3QrHz
      94uuqoCUm3R1t3pgPD90xExH4qMhMB8wHQYDVR0OBBYEFAfCLs/70QcCrlOnXTrC
      3Uhfu/k5MAoGCCqGSM49BAMCA0gAMEUCIQDeecWryCvXS7x9tSNjOKEw/auYCaja
      V0zSH3Yc0Y9GbgIgHIgs15beYOevROiegLzFlkt6wx3s+pExTNZS+CTfBw8=
      -----END CERTIFICATE-----
      """;

  @TempDir
  Path dir;

  private static Config settings(String overrides) {
    return EmbeddedCluster.settings(ConfigFactory.parseString(overrides));
  }

  @Test
  void shouldDefaultToSeedNodesAndTheContractsPortSelectorAndTwoContactPoints() {
    Config defaults = EmbeddedCluster.settings(ConfigFactory.empty());

    assertThat(KubernetesDiscovery.methodOf(defaults)).isEqualTo(JoinMethod.SEED_NODES);
    assertThat(KubernetesDiscovery.fromConfig(defaults))
        .isEqualTo(new KubernetesDiscovery(8558, 2, "app.kubernetes.io/name=fabemu"));
  }

  @Test
  void shouldReadTheSettingsBlock() {
    Config config = settings("""
        fabemu.discovery {
          method = kubernetes-api
          kubernetes-api { management-port = 9101, required-contact-points = 5, pod-label-selector = "app=x,tier=y" }
        }
        """);

    assertThat(KubernetesDiscovery.methodOf(config)).isEqualTo(JoinMethod.KUBERNETES_API);
    assertThat(KubernetesDiscovery.fromConfig(config)).isEqualTo(new KubernetesDiscovery(9101, 5, "app=x,tier=y"));
  }

  @Test
  void shouldNameTheSettingThatIsWrong() {
    assertThatThrownBy(() -> KubernetesDiscovery.methodOf(settings("fabemu.discovery.method = dns")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fabemu.discovery.method: unknown discovery method 'dns' (expected one of: seed-nodes, "
            + "kubernetes-api)");
    assertThatThrownBy(() -> KubernetesDiscovery.fromConfig(settings(KubernetesDiscovery.PATH
        + ".management-port = 70000")))
        .hasMessage("fabemu.discovery.kubernetes-api.management-port = 70000 is out of range (1 to 65535)");
    assertThatThrownBy(() -> KubernetesDiscovery.fromConfig(settings(KubernetesDiscovery.PATH
        + ".required-contact-points = 0")))
        .hasMessage("fabemu.discovery.kubernetes-api.required-contact-points = 0 must be at least 1");
    assertThatThrownBy(() -> KubernetesDiscovery.fromConfig(settings(KubernetesDiscovery.PATH
        + ".pod-label-selector = \" \"")))
        .hasMessage("fabemu.discovery.kubernetes-api.pod-label-selector must not be empty");
    assertThatThrownBy(() -> KubernetesDiscovery.fromConfig(settings(KubernetesDiscovery.PATH
        + ".management-port = eighty")))
        .hasMessageStartingWith("fabemu.discovery.kubernetes-api.management-port: ");
  }

  @Test
  void shouldBindTheManagementEndpointToTheMembersHostOnlyAndServeHealthAndBootstrapOnly() {
    Config pekko = new KubernetesDiscovery(8558, 3, "app.kubernetes.io/name=fabemu").pekkoSettings("10.1.2.3")
        .withFallback(EmbeddedCluster.settings(ConfigFactory.empty()));

    assertThat(pekko.getString("pekko.management.http.hostname")).isEqualTo("10.1.2.3");
    assertThat(pekko.getString("pekko.management.http.bind-hostname")).isEqualTo("10.1.2.3");
    assertThat(pekko.getInt("pekko.management.http.port")).isEqualTo(8558);
    assertThat(pekko.getInt("pekko.management.http.bind-port")).isEqualTo(8558);
    assertThat(pekko.getBoolean("pekko.management.http.route-providers-read-only")).isTrue();
    // The routes: Pekko's health checks and bootstrap's contact point, nothing that administers the cluster.
    assertThat(pekko.getObject("pekko.management.http.routes").unwrapped()).isEqualTo(Map.of(
        "health-checks", "org.apache.pekko.management.HealthCheckRoutes",
        "cluster-bootstrap", "org.apache.pekko.management.cluster.bootstrap.ClusterBootstrap$"));
    assertThat(pekko.getObject("pekko.management.health-checks.readiness-checks").unwrapped())
        .isEqualTo(Map.of("fabemu-member", MemberReadinessCheck.class.getName()));
    assertThat(pekko.getObject("pekko.management.health-checks.liveness-checks").unwrapped()).isEmpty();
    String bootstrap = "pekko.management.cluster.bootstrap.contact-point-discovery.";
    assertThat(pekko.getString(bootstrap + "discovery-method")).isEqualTo("kubernetes-api");
    assertThat(pekko.getString(bootstrap + "port-name")).isEqualTo(KubernetesDiscovery.PORT_NAME);
    assertThat(pekko.getInt(bootstrap + "required-contact-point-nr")).isEqualTo(3);
    assertThat(pekko.getString("pekko.discovery.kubernetes-api.pod-label-selector"))
        .isEqualTo("app.kubernetes.io/name=fabemu");
    assertThat(pekko.getBoolean("pekko.discovery.kubernetes-api.use-raw-ip")).isTrue();
  }

  @Test
  void shouldSayWhatIsMissingWhenThisIsNoPodThatCanReachTheApi() throws Exception {
    Path ca = Files.writeString(dir.resolve("ca.crt"), CA_PEM);
    Path token = Files.writeString(dir.resolve("token"), "t");
    Config pod = settings("pekko.discovery.kubernetes-api { api-ca-path = \"" + ca + "\", api-token-path = \""
        + token + "\" }");
    Map<String, String> env = Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443");

    assertThat(KubernetesDiscovery.environmentProblem(pod, env)).isNull();
    assertThat(KubernetesDiscovery.environmentProblem(pod, Map.of("KUBERNETES_SERVICE_PORT", "443")))
        .isEqualTo("the environment variable KUBERNETES_SERVICE_HOST (the Kubernetes API server's host) is not set: "
            + "not in a Kubernetes pod? (pekko.discovery.kubernetes-api.api-service-host-env-name)");
    assertThat(KubernetesDiscovery.environmentProblem(pod, Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1")))
        .startsWith("the environment variable KUBERNETES_SERVICE_PORT (the Kubernetes API server's port)");
    assertThat(KubernetesDiscovery.environmentProblem(pod, Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1",
        "KUBERNETES_SERVICE_PORT", "https")))
        .isEqualTo("the environment variable KUBERNETES_SERVICE_PORT = 'https' is not a port number");
    Files.writeString(ca, "not a certificate");
    assertThat(KubernetesDiscovery.environmentProblem(pod, env)).startsWith(ca
        + " (pekko.discovery.kubernetes-api.api-ca-path) holds no certificate");
    Files.writeString(ca, CA_PEM);
    Files.delete(token);
    assertThat(KubernetesDiscovery.environmentProblem(pod, env)).isEqualTo("cannot read " + token
        + " (pekko.discovery.kubernetes-api.api-token-path): no service account in this pod?");
    // Pekko's own settings name the variables.
    Config renamed = settings("pekko.discovery.kubernetes-api.api-service-host-env-name = API_HOST");
    assertThat(KubernetesDiscovery.environmentProblem(renamed, env)).contains("API_HOST");
  }

  @Test
  void shouldRefuseToStartOnOneLineOutsideAPod() {
    Config member = MemberSettings.member("127.0.0.1", 0, Transport.TCP).withFallback(ConfigFactory.parseString(
        "pekko.discovery.kubernetes-api.api-service-host-env-name = FABEMU_TEST_VARIABLE_THAT_IS_NEVER_SET"));

    assertThatThrownBy(() -> EmbeddedCluster.bootstrap(member, new KubernetesDiscovery(8558, 1, "app=fabemu"),
        Duration.ofSeconds(5)))
        .isInstanceOf(ClusterStartException.class)
        .hasMessage("cannot join through the Kubernetes API: the environment variable "
            + "FABEMU_TEST_VARIABLE_THAT_IS_NEVER_SET (the Kubernetes API server's host) is not set: not in a "
            + "Kubernetes pod? (pekko.discovery.kubernetes-api.api-service-host-env-name)");
  }

  @Test
  void shouldBeReadyOnlyOnceTheMemberIsUpAndServesRuns() throws Exception {
    try (EmbeddedCluster member = EmbeddedCluster.start()) {
      MemberReadinessCheck check = new MemberReadinessCheck(Adapter.toClassic(member.system()));
      assertThat(check.get().toCompletableFuture().get(5, TimeUnit.SECONDS)).as("Up, no member agent").isFalse();

      ScenarioRunner.serveAsMember(member);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      boolean ready = false;
      while (!ready && System.nanoTime() < deadline) {
        ready = check.get().toCompletableFuture().get(5, TimeUnit.SECONDS);
        if (!ready) Thread.sleep(50);
      }
      assertThat(ready).as("Up and its agent registered").isTrue();
    }
  }
}
