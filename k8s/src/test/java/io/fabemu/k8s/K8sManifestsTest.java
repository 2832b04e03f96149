package io.fabemu.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1Volume;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Kubernetes manifests as they are applied: the base and every overlay under {@code overlays/} rendered with
 * {@code kubectl kustomize} (skipped, with the reason printed, where kubectl is not installed), every document
 * checked by the Kubernetes API's model classes, and every one of fabemu's rules ({@link ManifestRules}) holding.
 * Runs in the module's folder ({@code k8s/}), where Maven runs the tests.
 */
class K8sManifestsTest {
  /** The base and every overlay: a new overlay is checked without being named here. */
  static List<String> kustomizations() throws IOException {
    List<String> dirs = new ArrayList<>();
    dirs.add("base");
    try (Stream<Path> overlays = Files.list(Path.of("overlays"))) {
      overlays.filter(p -> Files.isRegularFile(p.resolve("kustomization.yaml"))).map(p -> "overlays/"
          + p.getFileName()).sorted().forEach(dirs::add);
    }
    return dirs;
  }

  static Path kubectlOrSkip() {
    Optional<Path> kubectl = Kustomize.kubectl();
    if (kubectl.isEmpty()) {
      String reason = "kubectl is not on the PATH: the rendered manifests are not checked (install kubectl, which "
          + "has kustomize built in, to check them)";
      System.out.println("K8sManifestsTest: SKIPPED: " + reason);
      assumeTrue(false, reason);
    }
    return kubectl.get();
  }

  /** Renders {@code dir} with kubectl and checks every document against its model class. */
  static Rendering render(String dir) {
    Path kubectl = kubectlOrSkip();
    return Rendering.parse("kubectl kustomize " + dir, Kustomize.render(kubectl, Path.of(dir)));
  }

  @Test
  void theOverlaysAreSmallAndLarge() throws IOException {
    assertThat(kustomizations()).containsExactly("base", "overlays/large", "overlays/small");
  }

  @ParameterizedTest
  @MethodSource("kustomizations")
  void rendersValidatesAndKeepsEveryRule(String dir) {
    Path kubectl = kubectlOrSkip();
    Rendering rendering = render(dir);
    System.out.println("K8sManifestsTest: " + Kustomize.version(kubectl).replace('\n', ' ') + "; kubectl kustomize "
        + dir + ": " + rendering.documents().size() + " documents checked by the model classes ("
        + rendering.documents().stream().map(d -> d.kind() + " " + d.name()).collect(Collectors.joining(", "))
        + ")");
    Map<String, List<String>> problems = ManifestRules.check(rendering);
    assertThat(problems).hasSize(ManifestRules.rules().size());
    problems.forEach((rule, list) -> assertThat(list).as("%s: %s", dir, rule).isEmpty());
  }

  @ParameterizedTest
  @MethodSource("kustomizations")
  void rendersTheSameKindsEverywhere(String dir) {
    Rendering rendering = render(dir);
    List<String> kinds = rendering.documents().stream().map(Rendering.Document::kind).sorted().toList();
    List<String> expected = new ArrayList<>(List.of("ConfigMap", "ConfigMap", "Job", "PodDisruptionBudget", "Role",
        "RoleBinding", "Service", "ServiceAccount", "StatefulSet"));
    if (dir.equals("overlays/large")) expected.add("PersistentVolumeClaim");
    assertThat(kinds).containsExactlyElementsOf(expected.stream().sorted().toList());
  }

  @Test
  void theSmallOverlayRunsThreeMembersWithTheBaseSizes() {
    Rendering r = render("overlays/small");
    V1StatefulSet sts = r.all(V1StatefulSet.class).get(0);
    assertThat(sts.getMetadata().getName()).isEqualTo("fabemu-member");
    assertThat(sts.getSpec().getReplicas()).isEqualTo(3);
    assertThat(sts.getSpec().getPodManagementPolicy()).isEqualTo("Parallel");
    assertThat(cluster(r)).containsEntry("FABEMU_CONTACT_POINTS", "3").containsEntry("FABEMU_MEMBERS", "4")
        .containsEntry("FABEMU_TRANSPORT", "aeron-udp")
        .containsEntry("FABEMU_JAVA_OPTS", "-Xmx1g -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError");
    assertSizes(r, "2", "3Gi", "1Gi");
    assertThat(resultsVolume(r).getEmptyDir()).isNotNull();
    assertThat(scenario(r)).isEqualTo(readString(Path.of("../examples/quickstart.conf")));
  }

  @Test
  void theLargeOverlayRunsThirtyMembersWithBiggerPodsAndKeepsResultsOnAClaim() {
    Rendering r = render("overlays/large");
    assertThat(r.all(V1StatefulSet.class).get(0).getSpec().getReplicas()).isEqualTo(30);
    assertThat(cluster(r)).containsEntry("FABEMU_CONTACT_POINTS", "30").containsEntry("FABEMU_MEMBERS", "31")
        .containsEntry("FABEMU_TRANSPORT", "aeron-udp")
        .containsEntry("FABEMU_JAVA_OPTS", "-Xmx3g -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError");
    assertSizes(r, "4", "10Gi", "6Gi");
    V1PersistentVolumeClaim claim = r.all(V1PersistentVolumeClaim.class).get(0);
    assertThat(resultsVolume(r).getEmptyDir()).isNull();
    assertThat(resultsVolume(r).getPersistentVolumeClaim().getClaimName()).isEqualTo(claim.getMetadata().getName())
        .isEqualTo("fabemu-results");
    assertThat(scenario(r)).isEqualTo(readString(Path.of("overlays/large/scenario.conf")))
        .contains("hosts = 4096", "hosts-per-tor = 32");
  }

  @Test
  void theRuleTestsCopyOfTheSmallOverlayIsCurrent() {
    String rendered = Kustomize.render(kubectlOrSkip(), Path.of("overlays/small"));
    String snapshot = readString(ManifestRulesTest.SNAPSHOT);
    // The copy's header comment (how to refresh it) is not kubectl's.
    String body = snapshot.lines().dropWhile(line -> line.startsWith("#"))
        .collect(Collectors.joining("\n", "", "\n"));
    assertThat(body).as("%s is stale: refresh it as its first lines say", ManifestRulesTest.SNAPSHOT)
        .isEqualTo(rendered);
  }

  @Test
  void theBaseScenarioIsAnExactCopyOfTheQuickstart() {
    // kustomize reads no file outside the kustomization's folder, hence a copy; it must not drift.
    assertThat(readString(Path.of("base/scenario.conf"))).isEqualTo(readString(Path.of("../examples/quickstart.conf")));
  }

  @Test
  void theResultsReaderPodIsValidAndReadsTheClaim() {
    Rendering reader = Rendering.parse("components/results-pvc/reader-pod.yaml",
        readString(Path.of("components/results-pvc/reader-pod.yaml")));
    Rendering claim = Rendering.parse("components/results-pvc/pvc.yaml",
        readString(Path.of("components/results-pvc/pvc.yaml")));
    V1Pod pod = reader.all(V1Pod.class).get(0);
    assertThat(ManifestRules.limitsCoverRequests(reader)).isEmpty();
    assertThat(pod.getSpec().getVolumes()).singleElement().satisfies(v -> assertThat(
        v.getPersistentVolumeClaim().getClaimName()).isEqualTo(claim.all(V1PersistentVolumeClaim.class).get(0)
        .getMetadata().getName()));
    assertThat(pod.getSpec().getContainers().get(0).getImage()).isEqualTo("fabemu:0.1.0");
  }

  private static void assertSizes(Rendering r, String cpu, String memory, String shm) {
    V1StatefulSet sts = r.all(V1StatefulSet.class).get(0);
    V1Job job = r.all(V1Job.class).get(0);
    for (var spec : List.of(sts.getSpec().getTemplate().getSpec(), job.getSpec().getTemplate().getSpec())) {
      var resources = spec.getContainers().get(0).getResources();
      assertThat(resources.getRequests().get("cpu").toSuffixedString()).isEqualTo(cpu);
      assertThat(resources.getLimits().get("cpu").toSuffixedString()).isEqualTo(cpu);
      assertThat(resources.getRequests().get("memory").toSuffixedString()).isEqualTo(memory);
      assertThat(resources.getLimits().get("memory").toSuffixedString()).isEqualTo(memory);
      V1Volume dshm = spec.getVolumes().stream().filter(v -> v.getName().equals("dshm")).findFirst().orElseThrow();
      assertThat(dshm.getEmptyDir().getMedium()).isEqualTo("Memory");
      assertThat(dshm.getEmptyDir().getSizeLimit().toSuffixedString()).isEqualTo(shm);
    }
  }

  private static Map<String, String> cluster(Rendering r) {
    return r.all(V1ConfigMap.class).stream().filter(c -> c.getMetadata().getName().startsWith("fabemu-cluster-"))
        .findFirst().orElseThrow().getData();
  }

  private static String scenario(Rendering r) {
    return r.all(V1ConfigMap.class).stream().filter(c -> c.getMetadata().getName().startsWith("fabemu-scenario-"))
        .findFirst().orElseThrow().getData().get("scenario.conf");
  }

  private static V1Volume resultsVolume(Rendering r) {
    return r.all(V1Job.class).get(0).getSpec().getTemplate().getSpec().getVolumes().stream()
        .filter(v -> v.getName().equals("results")).findFirst().orElseThrow();
  }

  static String readString(Path path) {
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new AssertionError("cannot read " + path.toAbsolutePath() + ": " + e.getMessage(), e);
    }
  }
}
