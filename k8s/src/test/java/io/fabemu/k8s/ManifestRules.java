package io.fabemu.k8s;

import com.typesafe.config.Config;
import io.fabemu.cluster.MemberSettings;
import io.fabemu.cluster.scenario.LoadedScenario;
import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.core.placement.PlacementPlan;
import io.fabemu.core.topology.Topology;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.RbacV1Subject;
import io.kubernetes.client.openapi.models.V1ClusterRole;
import io.kubernetes.client.openapi.models.V1ClusterRoleBinding;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1HTTPGetAction;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1Probe;
import io.kubernetes.client.openapi.models.V1Role;
import io.kubernetes.client.openapi.models.V1RoleBinding;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeMount;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * fabemu's own rules for its Kubernetes manifests, beyond what the API's schema checks ({@link Rendering}): that the
 * pieces fit each other and fit fabemu. Each rule takes one rendering and returns its problems, one line each, empty
 * when the rule holds; a rule never throws on a bad manifest (a missing piece is a problem like any other).
 *
 * <p>The manifests hold one StatefulSet of members (its container runs {@code fabemu member}) and one Job whose
 * container runs {@code fabemu run} as coordinator; their arguments refer to environment variables
 * ({@code $(FABEMU_MEMBERS)}), which the rules resolve as Kubernetes does, through the rendered ConfigMaps. The
 * interface they follow (labels, ports, arguments, health paths, RBAC) is fabemu's Kubernetes contract, see
 * docs/kubernetes.md.
 */
public final class ManifestRules {
  /** Pekko Management's HTTP port: cluster bootstrap, /ready and /alive (the CLI's default and the contract's). */
  public static final int MANAGEMENT_PORT = 8558;
  /** The CLI's default {@code --pod-label-selector}: every fabemu pod, members and coordinator. */
  public static final String DEFAULT_POD_LABEL_SELECTOR = "app.kubernetes.io/name=fabemu";
  /** Label of every fabemu pod's role: {@code member} or {@code coordinator}. */
  public static final String COMPONENT_LABEL = "app.kubernetes.io/component";
  /** Least memory a JVM needs outside its heap here: metaspace, JIT code, threads, Artery's direct buffers. */
  public static final long NON_HEAP_RESERVE_BYTES = 512L << 20;
  /** The transports fabemu members speak ({@code --transport}). */
  public static final Set<String> TRANSPORTS = Set.of("aeron-udp", "tcp", "tls-tcp");
  /** Where Aeron's embedded media driver keeps its files. */
  public static final String SHM_PATH = "/dev/shm";

  private static final Pattern VARIABLE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");
  private static final Pattern XMX = Pattern.compile("-Xmx(\\d+)([kKmMgGtT]?)");

  private ManifestRules() {}

  /** One rule: a name for messages and the check. */
  public record Rule(String name, Function<Rendering, List<String>> check) {}

  /** Every rule, in the order they are reported. */
  public static List<Rule> rules() {
    return List.of(
        new Rule("the Service and the disruption budget select the StatefulSet's pods",
            ManifestRules::serviceSelectsMembers),
        new Rule("ports match the members' configuration", ManifestRules::portsMatchMemberSettings),
        new Rule("health probes on /ready and /alive", ManifestRules::healthProbes),
        new Rule("the discovery label selector matches the pods", ManifestRules::discoverySelectorMatchesPods),
        new Rule("RBAC grants exactly get, watch, list on pods", ManifestRules::rbacGrantsExactlyPodReads),
        new Rule("/dev/shm holds Aeron's buffers", ManifestRules::shmHoldsAeronBuffers),
        new Rule("member counts agree with the replicas", ManifestRules::memberCountsAgree),
        new Rule("resource limits cover the requests", ManifestRules::limitsCoverRequests),
        new Rule("-Xmx fits the memory limit", ManifestRules::heapFitsMemoryLimit),
        new Rule("the Job's scenario loads and spreads over the members", ManifestRules::scenarioFitsMembers),
        new Rule("members and coordinator share image and transport", ManifestRules::sameImageAndTransport),
        new Rule("arguments and references resolve", ManifestRules::referencesResolve));
  }

  /** Every rule's problems, by rule name, in {@link #rules()}'s order (empty lists included). */
  public static Map<String, List<String>> check(Rendering rendering) {
    Map<String, List<String>> problems = new LinkedHashMap<>();
    for (Rule rule : rules()) problems.put(rule.name(), rule.check().apply(rendering));
    return problems;
  }

  // ---- the rules ----

  /**
   * The headless Service named by the StatefulSet's {@code serviceName} selects the StatefulSet's pods and publishes
   * them before they are ready (members must be reachable to join, and are ready only once joined); the
   * StatefulSet's own selector matches its pods; a PodDisruptionBudget covers them.
   */
  public static List<String> serviceSelectsMembers(Rendering r) {
    List<String> problems = new ArrayList<>();
    V1StatefulSet sts = single(r, V1StatefulSet.class, problems);
    if (sts == null) return problems;
    String what = "StatefulSet " + sts.getMetadata().getName();
    Map<String, String> podLabels = labels(sts.getSpec().getTemplate().getMetadata().getLabels());
    checkSelector(what + "'s own selector", sts.getSpec().getSelector(), podLabels, what, problems);
    String serviceName = sts.getSpec().getServiceName();
    V1Service service = r.all(V1Service.class).stream()
        .filter(s -> s.getMetadata().getName().equals(serviceName)).findFirst().orElse(null);
    if (service == null) {
      problems.add(what + " names serviceName '" + serviceName + "', but no Service of that name is rendered");
    } else {
      String svc = "Service " + serviceName;
      if (!"None".equals(service.getSpec().getClusterIP())) {
        problems.add(svc + " is not headless (clusterIP: " + service.getSpec().getClusterIP() + ", not None): the "
            + "members need one DNS name each, not a load-balanced address");
      }
      if (!Boolean.TRUE.equals(service.getSpec().getPublishNotReadyAddresses())) {
        problems.add(svc + " does not set publishNotReadyAddresses: true: members are ready only after joining, "
            + "and must be reachable before that");
      }
      Map<String, String> selector = labels(service.getSpec().getSelector());
      if (selector.isEmpty()) {
        problems.add(svc + " has no selector");
      } else if (!matches(selector, podLabels)) {
        problems.add(svc + " selects " + selector + ", but " + what + "'s pods are labelled " + podLabels);
      }
    }
    List<V1PodDisruptionBudget> budgets = r.all(V1PodDisruptionBudget.class);
    if (budgets.stream().noneMatch(b -> b.getSpec().getSelector() != null
        && selectorMatches(b.getSpec().getSelector(), podLabels))) {
      problems.add("no PodDisruptionBudget selects " + what + "'s pods (labelled " + podLabels + "): a node drain "
          + "could evict a member mid-run");
    }
    return problems;
  }

  /**
   * The members' and the coordinator's ports are fabemu's: {@code --port} is {@link MemberSettings#DEFAULT_PORT},
   * declared as container port {@code remoting} (TCP, transport tcp) and {@code remoting-udp} (UDP, aeron-udp);
   * {@code --management-port} is {@link #MANAGEMENT_PORT}, declared as {@code management} (TCP; cluster bootstrap
   * finds contact points by that name); port names are unique in a pod (Kubernetes refuses duplicates); the
   * Service's ports lead to those container ports.
   */
  public static List<String> portsMatchMemberSettings(Rendering r) {
    List<String> problems = new ArrayList<>();
    List<PodView> pods = pods(r, problems);
    for (PodView pod : pods) {
      String remotingArg = option(pod.args(), "--port");
      if (remotingArg == null && pod.role().equals("coordinator")) {
        problems.add(pod.what() + ": no --port: `fabemu run` would pick a free port, not the declared "
            + MemberSettings.DEFAULT_PORT);
      }
      int remoting = parsePort(remotingArg, MemberSettings.DEFAULT_PORT, pod.what() + ": --port", problems);
      int management = parsePort(option(pod.args(), "--management-port"), MANAGEMENT_PORT,
          pod.what() + ": --management-port", problems);
      if (remoting != MemberSettings.DEFAULT_PORT) {
        problems.add(pod.what() + ": --port " + remoting + " is not fabemu's member port "
            + MemberSettings.DEFAULT_PORT + " (MemberSettings.DEFAULT_PORT)");
      }
      if (management != MANAGEMENT_PORT) {
        problems.add(pod.what() + ": --management-port " + management + " is not the management port "
            + MANAGEMENT_PORT);
      }
      expectPort(pod, "remoting", remoting, "TCP", problems);
      expectPort(pod, "remoting-udp", remoting, "UDP", problems);
      expectPort(pod, "management", management, "TCP", problems);
      Set<String> names = new HashSet<>();
      for (V1Container c : pod.spec().getContainers()) {
        for (V1ContainerPort p : nullToEmpty(c.getPorts())) {
          if (p.getName() != null && !names.add(p.getName())) {
            problems.add(pod.what() + ": port name '" + p.getName() + "' is used twice in the pod (Kubernetes "
                + "wants every port name of a pod unique)");
          }
        }
      }
    }
    V1StatefulSet sts = single(r, V1StatefulSet.class, new ArrayList<>());
    PodView member = pods.stream().filter(p -> p.role().equals("member")).findFirst().orElse(null);
    if (sts != null && member != null) {
      r.all(V1Service.class).stream().filter(s -> s.getMetadata().getName().equals(sts.getSpec().getServiceName()))
          .forEach(service -> checkServicePorts(service, member, problems));
    }
    return problems;
  }

  /** The members' readiness probe asks /ready and their liveness probe /alive, on the management port. */
  public static List<String> healthProbes(Rendering r) {
    List<String> problems = new ArrayList<>();
    for (PodView pod : pods(r, problems)) {
      if (!pod.role().equals("member")) continue;
      int management = parsePort(option(pod.args(), "--management-port"), MANAGEMENT_PORT, "", new ArrayList<>());
      checkProbe(pod, "readinessProbe", pod.container().getReadinessProbe(), "/ready", management, problems);
      checkProbe(pod, "livenessProbe", pod.container().getLivenessProbe(), "/alive", management, problems);
    }
    return problems;
  }

  /**
   * Members and coordinator use kubernetes-api discovery with one label selector ({@code --pod-label-selector}, else
   * the CLI's default {@value #DEFAULT_POD_LABEL_SELECTOR}), which matches the members' pods and not the
   * coordinator's (labelled with their role, {@value #COMPONENT_LABEL}: member, coordinator): a coordinator found as
   * a contact point could form the cluster and be its oldest member, whose end stops every member.
   */
  public static List<String> discoverySelectorMatchesPods(Rendering r) {
    List<String> problems = new ArrayList<>();
    Set<String> selectors = new HashSet<>();
    for (PodView pod : pods(r, problems)) {
      String discovery = option(pod.args(), "--discovery");
      if (!"kubernetes-api".equals(discovery)) {
        problems.add(pod.what() + ": --discovery is " + (discovery == null ? "not given" : "'" + discovery + "'")
            + ", not kubernetes-api");
      }
      String selectorText = option(pod.args(), "--pod-label-selector");
      if (selectorText == null) selectorText = DEFAULT_POD_LABEL_SELECTOR;
      selectors.add(selectorText);
      Map<String, String> selector = parseSelector(selectorText, pod.what(), problems);
      boolean member = "member".equals(pod.role());
      if (selector != null && member && !matches(selector, pod.labels())) {
        problems.add(pod.what() + ": discovery looks for pods labelled " + selectorText + ", but this pod is "
            + "labelled " + pod.labels() + ": it would not be found as a contact point");
      }
      if (selector != null && !member && matches(selector, pod.labels())) {
        problems.add(pod.what() + ": discovery looks for pods labelled " + selectorText + ", which this "
            + pod.role() + " pod is: it would be a contact point, could form the cluster and be its oldest member");
      }
      String component = pod.labels().get(COMPONENT_LABEL);
      if (!pod.role().equals(component)) {
        problems.add(pod.what() + ": its pods are labelled " + COMPONENT_LABEL + "=" + component + ", not "
            + pod.role());
      }
    }
    if (selectors.size() > 1) {
      problems.add("members and coordinator discover with different label selectors " + selectors.stream().sorted()
          .toList() + ": they would not see the same contact points");
    }
    return problems;
  }

  /**
   * The only grant is one Role with exactly {@code get}, {@code watch}, {@code list} on {@code pods} of the core
   * API group (what kubernetes-api discovery needs), bound to the ServiceAccount the fabemu pods run as; no
   * ClusterRole, no ClusterRoleBinding, no resource names narrowing it, nothing else.
   */
  public static List<String> rbacGrantsExactlyPodReads(Rendering r) {
    List<String> problems = new ArrayList<>();
    for (V1ClusterRole role : r.all(V1ClusterRole.class)) {
      problems.add("ClusterRole " + role.getMetadata().getName() + ": discovery needs no cluster-wide grant");
    }
    for (V1ClusterRoleBinding binding : r.all(V1ClusterRoleBinding.class)) {
      problems.add("ClusterRoleBinding " + binding.getMetadata().getName() + ": discovery needs no cluster-wide "
          + "grant");
    }
    List<V1Role> roles = r.all(V1Role.class);
    if (roles.size() != 1) {
      problems.add("expected exactly one Role (pod reads for discovery), found " + roles.size());
    }
    for (V1Role role : roles) {
      String what = "Role " + role.getMetadata().getName();
      List<V1PolicyRule> rules = nullToEmpty(role.getRules());
      if (rules.size() != 1) problems.add(what + " has " + rules.size() + " rules, not exactly one");
      for (V1PolicyRule rule : rules) {
        if (!List.of("").equals(rule.getApiGroups())) {
          problems.add(what + ": apiGroups " + rule.getApiGroups() + ", not [\"\"] (the core group only)");
        }
        if (!List.of("pods").equals(rule.getResources())) {
          problems.add(what + ": resources " + rule.getResources() + ", not [pods]");
        }
        List<String> verbs = nullToEmpty(rule.getVerbs());
        if (!Set.copyOf(verbs).equals(Set.of("get", "watch", "list")) || verbs.size() != 3) {
          problems.add(what + ": verbs " + verbs + ", not exactly get, watch, list");
        }
        if (!nullToEmpty(rule.getResourceNames()).isEmpty() || !nullToEmpty(rule.getNonResourceURLs()).isEmpty()) {
          problems.add(what + ": resourceNames or nonResourceURLs set; discovery reads pods by label, not by name");
        }
      }
    }
    Set<String> accounts = new HashSet<>();
    for (PodView pod : pods(r, problems)) {
      String account = pod.spec().getServiceAccountName();
      if (account == null) {
        problems.add(pod.what() + ": no serviceAccountName: the default account cannot list pods");
        continue;
      }
      accounts.add(account);
      if (Boolean.FALSE.equals(pod.spec().getAutomountServiceAccountToken())) {
        problems.add(pod.what() + ": automountServiceAccountToken: false leaves discovery without a token");
      }
    }
    for (String account : accounts) {
      if (r.all(V1ServiceAccount.class).stream().noneMatch(a -> a.getMetadata().getName().equals(account))) {
        problems.add("ServiceAccount " + account + " (the pods' serviceAccountName) is not rendered");
      }
    }
    List<V1RoleBinding> bindings = r.all(V1RoleBinding.class);
    if (bindings.isEmpty()) problems.add("no RoleBinding: the pods' ServiceAccount cannot list pods");
    for (V1RoleBinding binding : bindings) {
      String what = "RoleBinding " + binding.getMetadata().getName();
      String refKind = binding.getRoleRef().getKind();
      String refName = binding.getRoleRef().getName();
      if (!"Role".equals(refKind) || roles.stream().noneMatch(ro -> ro.getMetadata().getName().equals(refName))) {
        problems.add(what + " binds " + refKind + " " + refName + ", not the rendered Role");
      }
      for (RbacV1Subject subject : nullToEmpty(binding.getSubjects())) {
        if (!"ServiceAccount".equals(subject.getKind()) || !accounts.contains(subject.getName())) {
          problems.add(what + " grants to " + subject.getKind() + " " + subject.getName() + ", not only to the "
              + "pods' ServiceAccount " + accounts);
        }
      }
    }
    return problems;
  }

  /**
   * With transport aeron-udp, {@value #SHM_PATH} of every fabemu pod is a memory-backed emptyDir whose sizeLimit
   * holds what its Aeron media driver fills with {@code FABEMU_MEMBERS - 1} peers ({@link AeronShm}, from the
   * cluster settings the code uses and the pod's {@code -D} options).
   */
  public static List<String> shmHoldsAeronBuffers(Rendering r) {
    List<String> problems = new ArrayList<>();
    List<PodView> pods = pods(r, problems);
    Integer members = runMembers(pods, problems);
    for (PodView pod : pods) {
      if (!"aeron-udp".equals(pod.env().get("FABEMU_TRANSPORT")) || members == null) continue;
      Config config = AeronShm.memberConfig(systemProperties(pod.env().get("FABEMU_JAVA_OPTS")));
      long need = AeronShm.requiredBytes(config, members - 1);
      V1Volume volume = mountedVolume(pod, SHM_PATH);
      if (volume == null) {
        problems.add(pod.what() + ": nothing is mounted at " + SHM_PATH + " (a pod gets 64 MiB there; Aeron needs "
            + AeronShm.mib(need) + ")");
        continue;
      }
      if (volume.getEmptyDir() == null || !"Memory".equals(volume.getEmptyDir().getMedium())) {
        problems.add(pod.what() + ": volume " + volume.getName() + " at " + SHM_PATH + " is not an emptyDir with "
            + "medium: Memory");
        continue;
      }
      Quantity limit = volume.getEmptyDir().getSizeLimit();
      if (limit == null) {
        problems.add(pod.what() + ": the " + SHM_PATH + " emptyDir has no sizeLimit (it would count against the "
            + "memory limit unchecked)");
      } else if (bytes(limit) < need) {
        problems.add(pod.what() + ": " + SHM_PATH + " sizeLimit " + limit.toSuffixedString() + " ("
            + AeronShm.mib(bytes(limit)) + ") is less than the " + AeronShm.mib(need) + " Aeron fills with "
            + (members - 1) + " peers: " + AeronShm.explain(config, members - 1));
      }
    }
    return problems;
  }

  /**
   * The member counts agree with the StatefulSet's replicas R: members and coordinator wait for
   * {@code --required-contact-points} R, and the coordinator runs with {@code --members} R + 1 (its own member
   * counts).
   */
  public static List<String> memberCountsAgree(Rendering r) {
    List<String> problems = new ArrayList<>();
    V1StatefulSet sts = single(r, V1StatefulSet.class, problems);
    List<PodView> pods = pods(r, problems);
    if (sts == null) return problems;
    int replicas = sts.getSpec().getReplicas() == null ? 1 : sts.getSpec().getReplicas();
    String what = "StatefulSet " + sts.getMetadata().getName();
    for (PodView pod : pods) {
      String points = option(pod.args(), "--required-contact-points");
      if (!String.valueOf(replicas).equals(points)) {
        problems.add(pod.what() + ": --required-contact-points is " + describe(points) + " (FABEMU_CONTACT_POINTS), "
            + "but " + what + " has " + replicas + " replicas: bootstrap should wait for all of them");
      }
      if (pod.role().equals("coordinator")) {
        String members = option(pod.args(), "--members");
        if (!String.valueOf(replicas + 1).equals(members)) {
          problems.add(pod.what() + ": --members is " + describe(members) + " (FABEMU_MEMBERS), but " + what
              + " has " + replicas + " replicas: the run has " + (replicas + 1) + " members with the coordinator's");
        }
      }
    }
    return problems;
  }

  /** Every container of every pod (members, Job, plain Pods) requests and limits cpu and memory, limits >= requests. */
  public static List<String> limitsCoverRequests(Rendering r) {
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, V1PodSpec> entry : podSpecs(r).entrySet()) {
      for (V1Container c : entry.getValue().getContainers()) {
        String what = entry.getKey() + " container " + c.getName();
        Map<String, Quantity> requests = c.getResources() == null ? null : c.getResources().getRequests();
        Map<String, Quantity> limits = c.getResources() == null ? null : c.getResources().getLimits();
        for (String resource : List.of("cpu", "memory")) {
          Quantity request = requests == null ? null : requests.get(resource);
          Quantity limit = limits == null ? null : limits.get(resource);
          if (request == null || limit == null) {
            problems.add(what + ": " + resource + (request == null ? " request" : " limit") + " missing");
          } else if (limit.getNumber().compareTo(request.getNumber()) < 0) {
            problems.add(what + ": " + resource + " limit " + limit.toSuffixedString() + " is below its request "
                + request.toSuffixedString());
          }
        }
      }
    }
    return problems;
  }

  /**
   * FABEMU_JAVA_OPTS sets {@code -Xmx}, and the heap, the {@value #SHM_PATH} Aeron fills (a memory-backed emptyDir
   * is charged to the container's memory) and {@link #NON_HEAP_RESERVE_BYTES} fit in the container's memory limit.
   */
  public static List<String> heapFitsMemoryLimit(Rendering r) {
    List<String> problems = new ArrayList<>();
    List<PodView> pods = pods(r, problems);
    Integer members = runMembers(pods, new ArrayList<>());
    for (PodView pod : pods) {
      String opts = pod.env().get("FABEMU_JAVA_OPTS");
      Long xmx = xmxBytes(opts);
      if (xmx == null) {
        problems.add(pod.what() + ": FABEMU_JAVA_OPTS (" + describe(opts) + ") sets no -Xmx: the JVM would take a "
            + "quarter of the memory limit, and the heap must be sized with the limit");
        continue;
      }
      Map<String, Quantity> limits = pod.container().getResources() == null ? null
          : pod.container().getResources().getLimits();
      Quantity limit = limits == null ? null : limits.get("memory");
      if (limit == null) {
        problems.add(pod.what() + ": no memory limit to size -Xmx against");
        continue;
      }
      long shm = 0;
      if ("aeron-udp".equals(pod.env().get("FABEMU_TRANSPORT")) && members != null) {
        shm = AeronShm.requiredBytes(AeronShm.memberConfig(systemProperties(opts)), members - 1);
      }
      if (xmx + shm + NON_HEAP_RESERVE_BYTES > bytes(limit)) {
        problems.add(pod.what() + ": -Xmx " + AeronShm.mib(xmx) + " + " + AeronShm.mib(shm) + " of " + SHM_PATH
            + " + " + AeronShm.mib(NON_HEAP_RESERVE_BYTES) + " outside the heap exceed the memory limit "
            + limit.toSuffixedString() + " (" + AeronShm.mib(bytes(limit)) + "): the pod would be killed for memory");
      }
    }
    return problems;
  }

  /**
   * The scenario the Job runs comes from a ConfigMap volume, loads with fabemu's scenario loader, and its topology
   * can be spread over {@code --members} members (at most one per TOR, or per host on a direct topology).
   */
  public static List<String> scenarioFitsMembers(Rendering r) {
    List<String> problems = new ArrayList<>();
    PodView run = pods(r, problems).stream().filter(p -> p.role().equals("coordinator")).findFirst().orElse(null);
    if (run == null) return problems;
    String scenario = run.args().size() > 1 ? run.args().get(1) : null;
    if (scenario == null || scenario.startsWith("-")) {
      problems.add(run.what() + ": `fabemu run` has no scenario file argument");
      return problems;
    }
    int slash = scenario.lastIndexOf('/');
    String dir = slash <= 0 ? "/" : scenario.substring(0, slash);
    String key = scenario.substring(slash + 1);
    V1Volume volume = mountedVolume(run, dir);
    if (volume == null || volume.getConfigMap() == null) {
      problems.add(run.what() + ": " + dir + " (where " + scenario + " is) is not a ConfigMap volume");
      return problems;
    }
    V1ConfigMap map = r.configMap(volume.getConfigMap().getName());
    String text = map == null || map.getData() == null ? null : map.getData().get(key);
    if (text == null) {
      problems.add(run.what() + ": ConfigMap " + volume.getConfigMap().getName() + " has no key " + key + " for "
          + scenario);
      return problems;
    }
    String membersText = option(run.args(), "--members");
    Integer members = parseCount(membersText);
    if (members == null) {
      problems.add(run.what() + ": --members is " + describe(membersText) + ", not a count");
      return problems;
    }
    try {
      Path temp = Files.createTempDirectory("fabemu-k8s-scenario");
      Path file = temp.resolve(key);
      try {
        Files.writeString(file, text, StandardCharsets.UTF_8);
        LoadedScenario loaded = ScenarioLoader.load(file);
        Topology topology = loaded.spec().topology().build();
        PlacementPlan.compute(topology, topology.deviceCount(), members);
      } finally {
        Files.deleteIfExists(file);
        Files.deleteIfExists(temp);
      }
    } catch (ScenarioException | IllegalArgumentException e) {
      problems.add(run.what() + ": scenario " + scenario + " (ConfigMap " + volume.getConfigMap().getName() + "): "
          + e.getMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return problems;
  }

  /**
   * Members and coordinator run the same image (the same build: the wire format must match) over the same known
   * transport ({@code --transport}, {@link #TRANSPORTS}).
   */
  public static List<String> sameImageAndTransport(Rendering r) {
    List<String> problems = new ArrayList<>();
    List<PodView> pods = pods(r, problems);
    Set<String> images = new HashSet<>();
    Set<String> transports = new HashSet<>();
    for (PodView pod : pods) {
      images.add(String.valueOf(pod.container().getImage()));
      String transport = option(pod.args(), "--transport");
      transports.add(String.valueOf(transport));
      if (!TRANSPORTS.contains(transport)) {
        problems.add(pod.what() + ": --transport is " + describe(transport) + ", not one of "
            + TRANSPORTS.stream().sorted().toList());
      }
    }
    if (images.size() > 1) {
      problems.add("members and coordinator run different images " + images.stream().sorted().toList());
    }
    if (transports.size() > 1) {
      problems.add("members and coordinator use different transports " + transports.stream().sorted().toList());
    }
    return problems;
  }

  /**
   * Every {@code $(VAR)} in the fabemu containers' arguments is a variable of the container's env (Kubernetes
   * passes an undefined one on literally), and every ConfigMap an env entry or a volume names is rendered, with
   * the key asked for.
   */
  public static List<String> referencesResolve(Rendering r) {
    List<String> problems = new ArrayList<>();
    for (PodView pod : pods(r, problems)) {
      Set<String> defined = new HashSet<>();
      for (V1EnvVar var : nullToEmpty(pod.container().getEnv())) defined.add(var.getName());
      for (String arg : Stream.concat(nullToEmpty(pod.container().getCommand()).stream(),
          nullToEmpty(pod.container().getArgs()).stream()).toList()) {
        Matcher m = VARIABLE.matcher(arg);
        while (m.find()) {
          if (!defined.contains(m.group(1))) {
            problems.add(pod.what() + ": argument '" + arg + "' refers to $(" + m.group(1) + "), which its env does "
                + "not define: fabemu would get the text itself");
          }
        }
      }
    }
    for (Map.Entry<String, V1PodSpec> entry : podSpecs(r).entrySet()) {
      for (V1Container c : entry.getValue().getContainers()) {
        for (V1EnvVar var : nullToEmpty(c.getEnv())) {
          if (var.getValueFrom() == null || var.getValueFrom().getConfigMapKeyRef() == null) continue;
          String name = var.getValueFrom().getConfigMapKeyRef().getName();
          String key = var.getValueFrom().getConfigMapKeyRef().getKey();
          V1ConfigMap map = r.configMap(name);
          if (map == null || map.getData() == null || !map.getData().containsKey(key)) {
            problems.add(entry.getKey() + " container " + c.getName() + ": env " + var.getName() + " reads key "
                + key + " of ConfigMap " + name + ", which " + (map == null ? "is not rendered" : "has no such key"));
          }
        }
      }
      for (V1Volume v : nullToEmpty(entry.getValue().getVolumes())) {
        if (v.getConfigMap() != null && r.configMap(v.getConfigMap().getName()) == null) {
          problems.add(entry.getKey() + ": volume " + v.getName() + " mounts ConfigMap " + v.getConfigMap().getName()
              + ", which is not rendered");
        }
      }
    }
    return problems;
  }

  // ---- the fabemu pods ----

  /**
   * A fabemu container with its pod: {@code what} names it in messages, {@code role} is member or coordinator,
   * {@code env} its variables as the pod would see them (ConfigMap values resolved; a field reference as
   * {@code <fieldPath>}), {@code args} its arguments with {@code $(VAR)} replaced as Kubernetes does.
   */
  record PodView(String what, String role, Map<String, String> labels, V1PodSpec spec, V1Container container,
                 Map<String, String> env, List<String> args) {}

  /**
   * The members' and the coordinator's containers: the one StatefulSet's container whose first argument is
   * {@code member}, the one Job's whose first is {@code run}. Whatever is missing is added to {@code problems}.
   */
  static List<PodView> pods(Rendering r, List<String> problems) {
    List<PodView> pods = new ArrayList<>();
    V1StatefulSet sts = single(r, V1StatefulSet.class, problems);
    if (sts != null) {
      addPod(r, "StatefulSet " + sts.getMetadata().getName(), "member", sts.getSpec().getTemplate().getMetadata()
          .getLabels(), sts.getSpec().getTemplate().getSpec(), pods, problems);
    }
    V1Job job = single(r, V1Job.class, problems);
    if (job != null) {
      addPod(r, "Job " + job.getMetadata().getName(), "run", job.getSpec().getTemplate().getMetadata().getLabels(),
          job.getSpec().getTemplate().getSpec(), pods, problems);
    }
    return pods;
  }

  private static void addPod(Rendering r, String what, String command, Map<String, String> labels, V1PodSpec spec,
                             List<PodView> pods, List<String> problems) {
    V1Container container = spec.getContainers().stream()
        .filter(c -> c.getArgs() != null && !c.getArgs().isEmpty() && c.getArgs().get(0).equals(command))
        .findFirst().orElse(null);
    if (container == null) {
      problems.add(what + ": no container runs `fabemu " + command + "` (its first argument)");
      return;
    }
    Map<String, String> env = env(r, container);
    List<String> args = container.getArgs().stream().map(a -> expand(a, env)).toList();
    pods.add(new PodView(what, command.equals("member") ? "member" : "coordinator", labels(labels), spec, container,
        env, args));
  }

  private static <T> T single(Rendering r, Class<T> type, List<String> problems) {
    List<T> all = r.all(type);
    if (all.size() != 1) {
      String message = "expected exactly one " + type.getSimpleName().substring(2) + ", found " + all.size();
      if (!problems.contains(message)) problems.add(message);
      return null;
    }
    return all.get(0);
  }

  /** Every pod spec in the rendering, by what it belongs to. */
  static Map<String, V1PodSpec> podSpecs(Rendering r) {
    Map<String, V1PodSpec> specs = new LinkedHashMap<>();
    for (V1StatefulSet s : r.all(V1StatefulSet.class)) {
      specs.put("StatefulSet " + s.getMetadata().getName(), s.getSpec().getTemplate().getSpec());
    }
    for (V1Job j : r.all(V1Job.class)) {
      specs.put("Job " + j.getMetadata().getName(), j.getSpec().getTemplate().getSpec());
    }
    for (V1Pod p : r.all(V1Pod.class)) specs.put("Pod " + p.getMetadata().getName(), p.getSpec());
    return specs;
  }

  private static Map<String, String> env(Rendering r, V1Container container) {
    Map<String, String> env = new LinkedHashMap<>();
    for (V1EnvVar var : nullToEmpty(container.getEnv())) {
      String value = var.getValue();
      if (var.getValueFrom() != null) {
        if (var.getValueFrom().getFieldRef() != null) {
          value = "<" + var.getValueFrom().getFieldRef().getFieldPath() + ">";
        } else if (var.getValueFrom().getConfigMapKeyRef() != null) {
          V1ConfigMap map = r.configMap(var.getValueFrom().getConfigMapKeyRef().getName());
          value = map == null || map.getData() == null ? null
              : map.getData().get(var.getValueFrom().getConfigMapKeyRef().getKey());
        }
      }
      if (value != null) env.put(var.getName(), value);
    }
    return env;
  }

  /** {@code $(VAR)} replaced by {@code env}'s value where defined, as Kubernetes expands arguments. */
  static String expand(String arg, Map<String, String> env) {
    Matcher m = VARIABLE.matcher(arg);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String value = env.get(m.group(1));
      m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : value));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** The value after {@code name} in {@code args} ({@code name value} or {@code name=value}), or null. */
  static String option(List<String> args, String name) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals(name)) return i + 1 < args.size() ? args.get(i + 1) : null;
      if (a.startsWith(name + "=")) return a.substring(name.length() + 1);
    }
    return null;
  }

  /** The {@code -Dkey=value} options of a JVM option string, split on spaces as bin/fabemu does. */
  static Map<String, String> systemProperties(String javaOpts) {
    Map<String, String> properties = new LinkedHashMap<>();
    if (javaOpts == null) return properties;
    for (String opt : javaOpts.trim().split("\\s+")) {
      if (!opt.startsWith("-D") || opt.length() < 3) continue;
      int eq = opt.indexOf('=');
      properties.put(eq < 0 ? opt.substring(2) : opt.substring(2, eq), eq < 0 ? "" : opt.substring(eq + 1));
    }
    return properties;
  }

  /** The heap size the last {@code -Xmx} of a JVM option string sets, in bytes; null without one. */
  static Long xmxBytes(String javaOpts) {
    if (javaOpts == null) return null;
    Long bytes = null;
    for (String opt : javaOpts.trim().split("\\s+")) {
      Matcher m = XMX.matcher(opt);
      if (!m.matches()) continue;
      long n = Long.parseLong(m.group(1));
      int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
        case "k" -> 10;
        case "m" -> 20;
        case "g" -> 30;
        case "t" -> 40;
        default -> 0;
      };
      bytes = n << shift;
    }
    return bytes;
  }

  private static Integer runMembers(List<PodView> pods, List<String> problems) {
    PodView run = pods.stream().filter(p -> p.role().equals("coordinator")).findFirst().orElse(null);
    if (run == null) return null;
    String text = option(run.args(), "--members");
    Integer members = parseCount(text);
    if (members == null) problems.add(run.what() + ": --members is " + describe(text) + ", not a count");
    return members;
  }

  private static Integer parseCount(String text) {
    if (text == null || !text.matches("\\d{1,6}")) return null;
    int n = Integer.parseInt(text);
    return n >= 1 ? n : null;
  }

  private static int parsePort(String text, int absent, String what, List<String> problems) {
    if (text == null) return absent;
    if (!text.matches("\\d{1,5}")) {
      problems.add(what + " is '" + text + "', not a port number");
      return -1;
    }
    return Integer.parseInt(text);
  }

  private static void expectPort(PodView pod, String name, int number, String protocol, List<String> problems) {
    V1ContainerPort port = nullToEmpty(pod.container().getPorts()).stream()
        .filter(p -> name.equals(p.getName())).findFirst().orElse(null);
    if (port == null) {
      problems.add(pod.what() + ": no container port named " + name + " (" + number + "/" + protocol + ")");
      return;
    }
    String actual = port.getProtocol() == null ? "TCP" : port.getProtocol();
    if (port.getContainerPort() != number || !actual.equals(protocol)) {
      problems.add(pod.what() + ": container port " + name + " is " + port.getContainerPort() + "/" + actual
          + ", but fabemu listens on " + number + "/" + protocol);
    }
  }

  private static void checkServicePorts(V1Service service, PodView member, List<String> problems) {
    String svc = "Service " + service.getMetadata().getName();
    Set<String> covered = new HashSet<>();
    for (V1ServicePort sp : nullToEmpty(service.getSpec().getPorts())) {
      String protocol = sp.getProtocol() == null ? "TCP" : sp.getProtocol();
      IntOrString target = sp.getTargetPort() == null ? new IntOrString(sp.getPort()) : sp.getTargetPort();
      V1ContainerPort port = nullToEmpty(member.container().getPorts()).stream()
          .filter(p -> (p.getProtocol() == null ? "TCP" : p.getProtocol()).equals(protocol))
          .filter(p -> target.isInteger() ? p.getContainerPort().equals(target.getIntValue())
              : target.getStrValue().equals(p.getName()))
          .findFirst().orElse(null);
      if (port == null) {
        problems.add(svc + ": port " + sp.getName() + " targets " + target + "/" + protocol + ", which "
            + member.what() + "'s container does not declare");
      } else {
        if (!Objects.equals(sp.getPort(), port.getContainerPort())) {
          problems.add(svc + ": port " + sp.getName() + " is " + sp.getPort() + " but leads to container port "
              + port.getContainerPort() + " (members address each other by the container's port)");
        }
        covered.add(port.getName());
      }
    }
    for (String name : List.of("remoting", "remoting-udp", "management")) {
      if (!covered.contains(name)) problems.add(svc + ": no port leads to the members' " + name + " port");
    }
  }

  private static void checkProbe(PodView pod, String kind, V1Probe probe, String path, int management,
                                 List<String> problems) {
    V1HTTPGetAction get = probe == null ? null : probe.getHttpGet();
    if (get == null) {
      problems.add(pod.what() + ": no " + kind + " with httpGet " + path);
      return;
    }
    if (!path.equals(get.getPath())) {
      problems.add(pod.what() + ": " + kind + " asks " + get.getPath() + ", not " + path);
    }
    IntOrString port = get.getPort();
    boolean onManagement = port.isInteger() ? port.getIntValue() == management
        : nullToEmpty(pod.container().getPorts()).stream()
            .anyMatch(p -> port.getStrValue().equals(p.getName()) && p.getContainerPort() == management);
    if (!onManagement) {
      problems.add(pod.what() + ": " + kind + " asks port " + port + ", not the management port " + management);
    }
  }

  private static V1Volume mountedVolume(PodView pod, String mountPath) {
    V1VolumeMount mount = nullToEmpty(pod.container().getVolumeMounts()).stream()
        .filter(m -> trimSlash(m.getMountPath()).equals(trimSlash(mountPath))).findFirst().orElse(null);
    if (mount == null) return null;
    return nullToEmpty(pod.spec().getVolumes()).stream().filter(v -> v.getName().equals(mount.getName()))
        .findFirst().orElse(null);
  }

  private static String trimSlash(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }

  private static void checkSelector(String what, V1LabelSelector selector, Map<String, String> labels,
                                    String owner, List<String> problems) {
    if (selector == null || !selectorMatches(selector, labels)) {
      problems.add(what + " does not match " + owner + "'s pod labels " + labels);
    }
  }

  private static boolean selectorMatches(V1LabelSelector selector, Map<String, String> labels) {
    // Only matchLabels is used here; a matchExpressions would need its own evaluation: refuse it, never guess.
    if (selector.getMatchExpressions() != null && !selector.getMatchExpressions().isEmpty()) return false;
    Map<String, String> match = labels(selector.getMatchLabels());
    return !match.isEmpty() && matches(match, labels);
  }

  private static Map<String, String> parseSelector(String text, String what, List<String> problems) {
    Map<String, String> selector = new TreeMap<>();
    for (String term : text.split(",")) {
      String t = term.strip();
      int eq = t.indexOf("==") >= 0 ? t.indexOf("==") : t.indexOf('=');
      int skip = t.indexOf("==") >= 0 ? 2 : 1;
      if (eq <= 0 || t.contains("!") || t.contains(" in ") || t.contains("(")) {
        problems.add(what + ": label selector '" + text + "': only key=value terms are checked here");
        return null;
      }
      selector.put(t.substring(0, eq).strip(), t.substring(eq + skip).strip());
    }
    return selector;
  }

  private static boolean matches(Map<String, String> selector, Map<String, String> labels) {
    return selector.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
  }

  private static Map<String, String> labels(Map<String, String> labels) {
    return labels == null ? Map.of() : new TreeMap<>(labels);
  }

  private static long bytes(Quantity q) {
    return q.getNumber().setScale(0, RoundingMode.CEILING).longValueExact();
  }

  private static String describe(String value) {
    return value == null ? "not given" : "'" + value + "'";
  }

  private static <T> List<T> nullToEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }
}
