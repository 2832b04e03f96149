package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code tls-tcp} transport for real: key stores made here with the JDK's keytool (a CA, and member keys it
 * signed), two members in this JVM join over mutual TLS and give the one-member digest; a member whose key a
 * different CA signed is refused: it never comes Up, and the cluster keeps its two members.
 */
class TlsClusterTest {
  private static final String PASSWORD = "fabemu-test";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

  @TempDir
  static Path dir;

  private static List<EmbeddedCluster> members;

  @BeforeAll
  static void startMembers() throws Exception {
    newCa("ca");
    newMember("member", "ca");
    newTrustStore("trust", "ca");
    newCa("rogue-ca");
    newMember("rogue", "rogue-ca");
    newTrustStore("rogue-trust", "ca", "rogue-ca");  // the rogue trusts everyone: the refusal is the members'
    members = TestMembers.start(tls("member", "trust"), 2);
  }

  @AfterAll
  static void stopMembers() {
    if (members != null) {
      TestMembers.stop(members);
    }
  }

  /** Members over tls-tcp with mutual authentication, their key in {@code keyStore}, trusting {@code trustStore}. */
  private static Config tls(String keyStore, String trustStore) {
    String ssl = "pekko.remote.artery.ssl.config-ssl-engine.";
    return ConfigFactory.empty()
        .withValue("fabemu.transport", ConfigValueFactory.fromAnyRef("tls-tcp"))
        .withValue(ssl + "key-store", ConfigValueFactory.fromAnyRef(dir.resolve(keyStore + ".p12").toString()))
        .withValue(ssl + "trust-store", ConfigValueFactory.fromAnyRef(dir.resolve(trustStore + ".p12").toString()))
        .withValue(ssl + "key-store-password", ConfigValueFactory.fromAnyRef(PASSWORD))
        .withValue(ssl + "key-password", ConfigValueFactory.fromAnyRef(PASSWORD))
        .withValue(ssl + "trust-store-password", ConfigValueFactory.fromAnyRef(PASSWORD))
        .withValue(ssl + "require-mutual-authentication", ConfigValueFactory.fromAnyRef(true));
  }

  @Test
  void shouldGiveTheOneMemberDigestWhenTwoMembersRunOverTls() {
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = tls-test
        seed = 3
        topology { kind = leaf-spine, hosts = 8, hosts-per-tor = 4, spines = 2 }
        workload { collective = allreduce, algorithms = [ring], sizes = [4 KiB], iterations = 1, warmup = 0 }
        """, "tls-test.conf").spec();
    RunResult plain = Fabric.build(spec).runOnPlainEngine();

    RunResult overTls = ScenarioRunner.runDistributed(members.get(0), spec, 2, START_TIMEOUT, (d, t) -> {});

    assertThat(members.get(0).upMembers()).isEqualTo(2);
    assertThat(overTls.complete()).as(overTls.incompleteReason()).isTrue();
    assertThat(overTls.wrongElements()).isZero();
    assertThat(overTls.digest()).isEqualTo(plain.digest());
  }

  @Test
  void shouldRefuseAMemberWhoseCertificateTheMembersDoNotTrust() {
    long started = System.nanoTime();

    assertThatThrownBy(() -> EmbeddedCluster.joinSeedNodes(tls("rogue", "rogue-trust"),
        List.of(members.get(0).address()), Duration.ofSeconds(8)))
        .isInstanceOf(ClusterStartException.class)
        .hasMessageContaining("over tls-tcp did not come up within");

    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
    assertThat(members.get(0).upMembers()).as("the rogue never joined").isEqualTo(2);
  }

  // ---- key stores, made with the JDK's keytool ----

  private static void newCa(String name) throws Exception {
    keytool("-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=" + name,
        "-ext", "bc:c", "-validity", "2", "-keystore", name + ".p12");
    keytool("-exportcert", "-rfc", "-alias", name, "-keystore", name + ".p12", "-file", name + ".pem");
  }

  /** A key pair in {@code name}.p12 whose certificate {@code ca} signed, for 127.0.0.1, with the CA's chain. */
  private static void newMember(String name, String ca) throws Exception {
    keytool("-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=" + name,
        "-validity", "2", "-keystore", name + ".p12");
    keytool("-certreq", "-alias", name, "-keystore", name + ".p12", "-file", name + ".csr");
    keytool("-gencert", "-rfc", "-alias", ca, "-keystore", ca + ".p12", "-infile", name + ".csr",
        "-outfile", name + ".pem", "-ext", "san=ip:127.0.0.1", "-validity", "2");
    keytool("-importcert", "-noprompt", "-alias", ca, "-keystore", name + ".p12", "-file", ca + ".pem");
    keytool("-importcert", "-alias", name, "-keystore", name + ".p12", "-file", name + ".pem");
  }

  private static void newTrustStore(String name, String... cas) throws Exception {
    for (String ca : cas) {
      keytool("-importcert", "-noprompt", "-alias", ca, "-keystore", name + ".p12", "-file", ca + ".pem");
    }
  }

  private static void keytool(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(arguments));
    command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
    Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException("keytool " + String.join(" ", arguments) + " failed: " + output);
    }
  }
}
