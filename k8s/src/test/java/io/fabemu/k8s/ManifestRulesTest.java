package io.fabemu.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every rule can fail: the small overlay as kubectl renders it ({@link #SNAPSHOT}, kept equal to the rendering by
 * {@link K8sManifestsTest}, so these tests need no kubectl) with one deliberate fault at a time, seen by the rule it
 * breaks, with the message a user would read — and the unbroken overlay passing every rule, so each failure below
 * comes from its fault alone. The model classes' schema checks are broken the same way.
 */
class ManifestRulesTest {
  /** {@code kubectl kustomize overlays/small}, as rendered (its header says how to refresh it). */
  static final Path SNAPSHOT = Path.of("src/test/resources/small-rendered.yaml");

  private static Rendering small;

  @BeforeAll
  static void readSmall() {
    small = Rendering.parse(SNAPSHOT.toString(), K8sManifestsTest.readString(SNAPSHOT));
  }

  @Test
  void theUnbrokenOverlayPassesEveryRule() {
    ManifestRules.check(small).forEach((rule, problems) -> assertThat(problems).as(rule).isEmpty());
  }

  // ---- the API schema (Rendering) ----

  @Test
  void anUnknownKeyIsRefused() {
    assertThatThrownBy(() -> broken(t -> container(t, "StatefulSet").put("imagePullPolicyy", "Always")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("small overlay, broken: document ")
        .hasMessageContaining("(StatefulSet fabemu-member)").hasMessageContaining("imagePullPolicyy");
  }

  @Test
  void aValueOfTheWrongTypeIsRefused() {
    assertThatThrownBy(() -> broken(t -> ((ObjectNode) doc(t, "StatefulSet").get("spec")).set("replicas",
        ((ObjectNode) doc(t, "StatefulSet").get("spec")).objectNode().put("count", 3))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("(StatefulSet fabemu-member)")
        .hasMessageContaining("replicas");
  }

  @Test
  void aMissingRequiredFieldIsRefused() {
    assertThatThrownBy(() -> broken(t -> container(t, "Job").remove("name")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("(Job fabemu-run)")
        .hasMessageContaining("name");
  }

  @Test
  void aKindNobodyChecksIsRefused() {
    assertThatThrownBy(() -> broken(t -> doc(t, "PodDisruptionBudget").put("apiVersion", "policy/v1beta1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("apiVersion/kind policy/v1beta1/PodDisruptionBudget is not one this suite checks");
  }

  // ---- fabemu's rules ----

  @Test
  void aServiceThatSelectsOtherPodsFails() {
    Rendering r = broken(t -> ((ObjectNode) doc(t, "Service").at("/spec/selector"))
        .put("app.kubernetes.io/component", "coordinator"));
    assertThat(ManifestRules.serviceSelectsMembers(r)).containsExactly("Service fabemu selects "
        + "{app.kubernetes.io/component=coordinator, app.kubernetes.io/name=fabemu}, but StatefulSet fabemu-member's "
        + "pods are labelled {app.kubernetes.io/component=member, app.kubernetes.io/name=fabemu}");
  }

  @Test
  void aServiceThatHidesUnreadyMembersFails() {
    Rendering r = broken(t -> ((ObjectNode) doc(t, "Service").get("spec")).remove("publishNotReadyAddresses"));
    assertThat(ManifestRules.serviceSelectsMembers(r)).singleElement().asString()
        .startsWith("Service fabemu does not set publishNotReadyAddresses: true");
  }

  @Test
  void aDisruptionBudgetForOtherPodsFails() {
    Rendering r = broken(t -> ((ObjectNode) doc(t, "PodDisruptionBudget").at("/spec/selector/matchLabels"))
        .put("app.kubernetes.io/component", "coordinator"));
    assertThat(ManifestRules.serviceSelectsMembers(r)).singleElement().asString()
        .startsWith("no PodDisruptionBudget selects StatefulSet fabemu-member's pods");
  }

  @Test
  void aContainerPortOtherThanTheMembersFails() {
    Rendering r = broken(t -> ((ObjectNode) container(t, "StatefulSet").at("/ports/0")).put("containerPort", 25521));
    assertThat(ManifestRules.portsMatchMemberSettings(r)).contains("StatefulSet fabemu-member: container port "
        + "remoting is 25521/TCP, but fabemu listens on 25520/TCP");
  }

  @Test
  void aManagementPortOtherThanTheDefaultFails() {
    Rendering r = broken(t -> replaceArg(t, "Job", "8558", "8559"));
    assertThat(ManifestRules.portsMatchMemberSettings(r)).containsExactly(
        "Job fabemu-run: --management-port 8559 is not the management port 8558",
        "Job fabemu-run: container port management is 8558/TCP, but fabemu listens on 8559/TCP");
  }

  @Test
  void aPortNameUsedTwiceFails() {
    Rendering r = broken(t -> ((ObjectNode) container(t, "StatefulSet").at("/ports/1")).put("name", "remoting"));
    assertThat(ManifestRules.portsMatchMemberSettings(r)).contains("StatefulSet fabemu-member: port name "
        + "'remoting' is used twice in the pod (Kubernetes wants every port name of a pod unique)");
  }

  @Test
  void aReadinessProbeOnAnotherPathFails() {
    Rendering r = broken(t -> ((ObjectNode) container(t, "StatefulSet").at("/readinessProbe/httpGet"))
        .put("path", "/health"));
    assertThat(ManifestRules.healthProbes(r)).containsExactly(
        "StatefulSet fabemu-member: readinessProbe asks /health, not /ready");
  }

  @Test
  void aLivenessProbeOnAnotherPortFails() {
    Rendering r = broken(t -> ((ObjectNode) container(t, "StatefulSet").at("/livenessProbe/httpGet"))
        .put("port", "remoting"));
    assertThat(ManifestRules.healthProbes(r)).containsExactly(
        "StatefulSet fabemu-member: livenessProbe asks port remoting, not the management port 8558");
  }

  @Test
  void aSelectorThatAlsoFindsTheCoordinatorFails() {
    Rendering r = broken(t -> {
      replaceArg(t, "StatefulSet", "app.kubernetes.io/name=fabemu,app.kubernetes.io/component=member",
          "app.kubernetes.io/name=fabemu");
      replaceArg(t, "Job", "app.kubernetes.io/name=fabemu,app.kubernetes.io/component=member",
          "app.kubernetes.io/name=fabemu");
    });
    assertThat(ManifestRules.discoverySelectorMatchesPods(r)).containsExactly("Job fabemu-run: discovery looks for "
        + "pods labelled app.kubernetes.io/name=fabemu, which this coordinator pod is: it would be a contact point, "
        + "could form the cluster and be its oldest member");
  }

  @Test
  void anExplicitSelectorThatMissesTheMembersFails() {
    Rendering r = broken(t -> {
      replaceArg(t, "StatefulSet", "app.kubernetes.io/name=fabemu,app.kubernetes.io/component=member", "app=fabemu");
      replaceArg(t, "Job", "app.kubernetes.io/name=fabemu,app.kubernetes.io/component=member", "app=fabemu");
    });
    assertThat(ManifestRules.discoverySelectorMatchesPods(r)).containsExactly(
        "StatefulSet fabemu-member: discovery looks for pods labelled app=fabemu, but this pod is labelled "
            + "{app.kubernetes.io/component=member, app.kubernetes.io/name=fabemu}: it would not be found as a "
            + "contact point");
  }

  @Test
  void seedNodesInsteadOfDiscoveryFails() {
    Rendering r = broken(t -> replaceArg(t, "StatefulSet", "kubernetes-api", "config"));
    assertThat(ManifestRules.discoverySelectorMatchesPods(r)).containsExactly(
        "StatefulSet fabemu-member: --discovery is 'config', not kubernetes-api");
  }

  @Test
  void aRoleThatMayAlsoDeletePodsFails() {
    Rendering r = broken(t -> ((ArrayNode) doc(t, "Role").at("/rules/0/verbs")).add("delete"));
    assertThat(ManifestRules.rbacGrantsExactlyPodReads(r)).containsExactly(
        "Role fabemu-pod-reader: verbs [get, watch, list, delete], not exactly get, watch, list");
  }

  @Test
  void aRoleThatMayReadSecretsFails() {
    Rendering r = broken(t -> ((ArrayNode) doc(t, "Role").at("/rules/0/resources")).add("secrets"));
    assertThat(ManifestRules.rbacGrantsExactlyPodReads(r)).containsExactly(
        "Role fabemu-pod-reader: resources [pods, secrets], not [pods]");
  }

  @Test
  void aBindingToAnotherAccountFails() {
    Rendering r = broken(t -> ((ObjectNode) doc(t, "RoleBinding").at("/subjects/0")).put("name", "default"));
    assertThat(ManifestRules.rbacGrantsExactlyPodReads(r)).containsExactly(
        "RoleBinding fabemu-pod-reader grants to ServiceAccount default, not only to the pods' ServiceAccount "
            + "[fabemu]");
  }

  @Test
  void aSmallDevShmFails() {
    Rendering r = broken(t -> ((ObjectNode) volume(t, "Job", "dshm").get("emptyDir")).put("sizeLimit", "64Mi"));
    assertThat(ManifestRules.shmHoldsAeronBuffers(r)).containsExactly("Job fabemu-run: /dev/shm sizeLimit 64Mi "
        + "(64.00 MiB) is less than the 585.05 MiB Aeron fills with 3 peers: 3 peers x 2 streams x 2 directions x "
        + "(3 x 16.00 MiB term + metadata = 48.00 MiB) + 9.00 MiB driver files");
  }

  @Test
  void aLongerAeronTermFromTheJvmOptionsOutgrowsDevShm() {
    // 32 MiB terms (-Daeron.term.buffer.length, which fabemu honours over its own setting) double the buffers.
    Rendering r = broken(t -> configData(t).put("FABEMU_JAVA_OPTS",
        "-Xmx1g -XX:+UseG1GC -Daeron.term.buffer.length=33554432"));
    assertThat(ManifestRules.shmHoldsAeronBuffers(r)).containsExactly(
        "StatefulSet fabemu-member: /dev/shm sizeLimit 1Gi (1024.00 MiB) is less than the 1161.05 MiB Aeron fills "
            + "with 3 peers: 3 peers x 2 streams x 2 directions x (3 x 32.00 MiB term + metadata = 96.00 MiB) + "
            + "9.00 MiB driver files",
        "Job fabemu-run: /dev/shm sizeLimit 1Gi (1024.00 MiB) is less than the 1161.05 MiB Aeron fills with 3 peers: "
            + "3 peers x 2 streams x 2 directions x (3 x 32.00 MiB term + metadata = 96.00 MiB) + 9.00 MiB driver "
            + "files");
  }

  @Test
  void aDevShmOnDiskFails() {
    Rendering r = broken(t -> ((ObjectNode) volume(t, "StatefulSet", "dshm").get("emptyDir")).remove("medium"));
    assertThat(ManifestRules.shmHoldsAeronBuffers(r)).containsExactly(
        "StatefulSet fabemu-member: volume dshm at /dev/shm is not an emptyDir with medium: Memory");
  }

  @Test
  void overTcpDevShmDoesNotMatter() {
    Rendering r = broken(t -> {
      configData(t).put("FABEMU_TRANSPORT", "tcp");
      ((ObjectNode) volume(t, "StatefulSet", "dshm").get("emptyDir")).put("sizeLimit", "64Mi");
    });
    assertThat(ManifestRules.shmHoldsAeronBuffers(r)).isEmpty();
  }

  @Test
  void replicasOutOfStepWithTheContactPointsFail() {
    Rendering r = broken(t -> ((ObjectNode) doc(t, "StatefulSet").get("spec")).put("replicas", 4));
    assertThat(ManifestRules.memberCountsAgree(r)).containsExactly(
        "StatefulSet fabemu-member: --required-contact-points is '3' (FABEMU_CONTACT_POINTS), but StatefulSet "
            + "fabemu-member has 4 replicas: bootstrap should wait for all of them",
        "Job fabemu-run: --required-contact-points is '3' (FABEMU_CONTACT_POINTS), but StatefulSet fabemu-member "
            + "has 4 replicas: bootstrap should wait for all of them",
        "Job fabemu-run: --members is '4' (FABEMU_MEMBERS), but StatefulSet fabemu-member has 4 replicas: the run "
            + "has 5 members with the coordinator's");
  }

  @Test
  void aMemberCountWithoutTheCoordinatorFails() {
    Rendering r = broken(t -> configData(t).put("FABEMU_MEMBERS", "3"));
    assertThat(ManifestRules.memberCountsAgree(r)).containsExactly("Job fabemu-run: --members is '3' "
        + "(FABEMU_MEMBERS), but StatefulSet fabemu-member has 3 replicas: the run has 4 members with the "
        + "coordinator's");
  }

  @Test
  void aRequestAboveItsLimitFails() {
    Rendering r = broken(t -> ((ObjectNode) container(t, "Job").at("/resources/requests")).put("memory", "4Gi"));
    assertThat(ManifestRules.limitsCoverRequests(r)).containsExactly(
        "Job fabemu-run container coordinator: memory limit 3Gi is below its request 4Gi");
  }

  @Test
  void aMissingCpuLimitFails() {
    Rendering r = broken(t -> ((ObjectNode) container(t, "StatefulSet").at("/resources/limits")).remove("cpu"));
    assertThat(ManifestRules.limitsCoverRequests(r)).containsExactly(
        "StatefulSet fabemu-member container member: cpu limit missing");
  }

  @Test
  void aHeapLargerThanTheLimitFails() {
    Rendering r = broken(t -> configData(t).put("FABEMU_JAVA_OPTS", "-Xmx2g -XX:+UseG1GC"));
    // 2 GiB heap + 585.05 MiB of /dev/shm + 512 MiB > 3 GiB.
    assertThat(ManifestRules.heapFitsMemoryLimit(r)).containsExactly(
        "StatefulSet fabemu-member: -Xmx 2048.00 MiB + 585.05 MiB of /dev/shm + 512.00 MiB outside the heap exceed "
            + "the memory limit 3Gi (3072.00 MiB): the pod would be killed for memory",
        "Job fabemu-run: -Xmx 2048.00 MiB + 585.05 MiB of /dev/shm + 512.00 MiB outside the heap exceed the memory "
            + "limit 3Gi (3072.00 MiB): the pod would be killed for memory");
  }

  @Test
  void aHeapThatFitsOnlyWithoutAeronPassesOverTcp() {
    Rendering r = broken(t -> {
      configData(t).put("FABEMU_JAVA_OPTS", "-Xmx2g -XX:+UseG1GC");
      configData(t).put("FABEMU_TRANSPORT", "tcp");
    });
    assertThat(ManifestRules.heapFitsMemoryLimit(r)).isEmpty();
  }

  @Test
  void noXmxFails() {
    Rendering r = broken(t -> configData(t).put("FABEMU_JAVA_OPTS", "-XX:+UseG1GC"));
    assertThat(ManifestRules.heapFitsMemoryLimit(r)).containsExactly(
        "StatefulSet fabemu-member: FABEMU_JAVA_OPTS ('-XX:+UseG1GC') sets no -Xmx: the JVM would take a quarter of "
            + "the memory limit, and the heap must be sized with the limit",
        "Job fabemu-run: FABEMU_JAVA_OPTS ('-XX:+UseG1GC') sets no -Xmx: the JVM would take a quarter of the memory "
            + "limit, and the heap must be sized with the limit");
  }

  @Test
  void aScenarioWithFewerTorsThanMembersFails() {
    Rendering r = broken(t -> scenarioData(t).put("scenario.conf", scenarioData(t).get("scenario.conf").asText()
        .replace("hosts-per-tor = 4 ", "hosts-per-tor = 8 ")));
    assertThat(ManifestRules.scenarioFitsMembers(r)).singleElement().asString()
        .startsWith("Job fabemu-run: scenario /scenario/scenario.conf (ConfigMap fabemu-scenario-")
        .contains("cannot spread", "over 4 member(s): it needs at least 1 and at most 2, one per TOR with its hosts");
  }

  @Test
  void aScenarioThatDoesNotLoadFails() {
    Rendering r = broken(t -> scenarioData(t).put("scenario.conf", scenarioData(t).get("scenario.conf").asText()
        .replace("spines = 2", "spinez = 2")));
    assertThat(ManifestRules.scenarioFitsMembers(r)).singleElement().asString()
        .contains("scenario.conf:", "topology.spinez: unknown key (did you mean 'spines'?)");
  }

  @Test
  void aCoordinatorOfAnotherBuildFails() {
    Rendering r = broken(t -> container(t, "Job").put("image", "fabemu:0.0.9"));
    assertThat(ManifestRules.sameImageAndTransport(r)).containsExactly(
        "members and coordinator run different images [fabemu:0.0.9, fabemu:0.1.0]");
  }

  @Test
  void anUnknownTransportFails() {
    Rendering r = broken(t -> configData(t).put("FABEMU_TRANSPORT", "udp"));
    assertThat(ManifestRules.sameImageAndTransport(r)).containsExactly(
        "StatefulSet fabemu-member: --transport is 'udp', not one of [aeron-udp, tcp, tls-tcp]",
        "Job fabemu-run: --transport is 'udp', not one of [aeron-udp, tcp, tls-tcp]");
  }

  @Test
  void anArgumentReferringToAnUndefinedVariableFails() {
    Rendering r = broken(t -> {
      ArrayNode env = (ArrayNode) container(t, "Job").get("env");
      for (int i = 0; i < env.size(); i++) {
        if (env.get(i).get("name").asText().equals("FABEMU_MEMBERS")) {
          env.remove(i);
          break;
        }
      }
    });
    assertThat(ManifestRules.referencesResolve(r)).containsExactly("Job fabemu-run: argument '$(FABEMU_MEMBERS)' "
        + "refers to $(FABEMU_MEMBERS), which its env does not define: fabemu would get the text itself");
  }

  @Test
  void anEnvEntryReadingAMissingKeyFails() {
    Rendering r = broken(t -> configData(t).remove("FABEMU_TRANSPORT"));
    List<String> problems = ManifestRules.referencesResolve(r);
    assertThat(problems).hasSize(2).allSatisfy(p -> assertThat(p).contains(": env FABEMU_TRANSPORT reads key "
        + "FABEMU_TRANSPORT of ConfigMap fabemu-cluster-", ", which has no such key"));
    assertThat(problems.get(0)).startsWith("StatefulSet fabemu-member container member: ");
    assertThat(problems.get(1)).startsWith("Job fabemu-run container coordinator: ");
  }

  @Test
  void theRulesAreTheOnesBrokenAbove() {
    // A new rule must come with a broken manifest of its own here; this list is what the tests above break.
    assertThat(ManifestRules.rules()).extracting(ManifestRules.Rule::name).containsExactly(
        "the Service and the disruption budget select the StatefulSet's pods",
        "ports match the members' configuration",
        "health probes on /ready and /alive",
        "the discovery label selector matches the pods",
        "RBAC grants exactly get, watch, list on pods",
        "/dev/shm holds Aeron's buffers",
        "member counts agree with the replicas",
        "resource limits cover the requests",
        "-Xmx fits the memory limit",
        "the Job's scenario loads and spreads over the members",
        "members and coordinator share image and transport",
        "arguments and references resolve");
  }

  // ---- building broken manifests ----

  private static Rendering broken(Consumer<List<JsonNode>> change) {
    List<JsonNode> trees = small.treeCopies();
    change.accept(trees);
    return Rendering.fromTrees("small overlay, broken", trees);
  }

  private static ObjectNode doc(List<JsonNode> trees, String kind) {
    return (ObjectNode) trees.stream().filter(t -> t.path("kind").asText().equals(kind)).findFirst().orElseThrow();
  }

  private static ObjectNode container(List<JsonNode> trees, String kind) {
    return (ObjectNode) doc(trees, kind).at("/spec/template/spec/containers/0");
  }

  private static ArrayNode args(List<JsonNode> trees, String kind) {
    return (ArrayNode) container(trees, kind).get("args");
  }

  private static void replaceArg(List<JsonNode> trees, String kind, String from, String to) {
    ArrayNode args = args(trees, kind);
    int replaced = 0;
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).asText().equals(from)) {
        args.set(i, args.textNode(to));
        replaced++;
      }
    }
    assertThat(replaced).as("arguments '%s' of the %s", from, kind).isEqualTo(1);
  }

  private static ObjectNode volume(List<JsonNode> trees, String kind, String name) {
    for (JsonNode v : doc(trees, kind).at("/spec/template/spec/volumes")) {
      if (v.get("name").asText().equals(name)) return (ObjectNode) v;
    }
    throw new AssertionError("no volume " + name + " in the " + kind);
  }

  private static ObjectNode configData(List<JsonNode> trees) {
    return configMapData(trees, "fabemu-cluster-");
  }

  private static ObjectNode scenarioData(List<JsonNode> trees) {
    return configMapData(trees, "fabemu-scenario-");
  }

  private static ObjectNode configMapData(List<JsonNode> trees, String prefix) {
    return (ObjectNode) trees.stream().filter(t -> t.path("kind").asText().equals("ConfigMap"))
        .filter(t -> t.at("/metadata/name").asText().startsWith(prefix)).findFirst().orElseThrow().get("data");
  }
}
